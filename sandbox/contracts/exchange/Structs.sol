// SPDX-License-Identifier: MIT
// The order as the exchange receives it. One struct carries the fields of every order version: each exchange
// instance signs (hashes) only the fields of its own version (see OrderHashing), so the CLOB can settle
// version 1, 2 or 3 orders through the same interface.
pragma solidity ^0.8.20;

enum Side {
    BUY,
    SELL
}

enum SignatureType {
    EOA,
    POLY_PROXY,
    POLY_GNOSIS_SAFE,
    POLY_1271
}

/// COMPLEMENTARY: a buy against a sell of the same token; MINT: two buys of complementary tokens;
/// MERGE: two sells of complementary tokens.
enum MatchType {
    COMPLEMENTARY,
    MINT,
    MERGE
}

struct Order {
    uint256 salt;
    /// Source of the funds, and the only address that may cancel the order.
    address maker;
    /// Address whose key signed the order; equals maker for EOA orders.
    address signer;
    /// Version 1 only: if set, the only counterparty allowed to fill the order.
    address taker;
    /// The outcome token bought (BUY) or sold (SELL).
    uint256 tokenId;
    /// BUY: collateral offered; SELL: outcome tokens offered.
    uint256 makerAmount;
    /// BUY: outcome tokens wanted; SELL: collateral wanted.
    uint256 takerAmount;
    /// Unix seconds after which the order cannot be filled; 0 means never.
    uint256 expiration;
    /// Version 1 only: must equal the maker's current nonce (incrementNonce cancels every older order).
    uint256 nonce;
    /// Version 1: signed by the trader. Versions 2 and 3: set by the operator at match time.
    uint256 feeRateBps;
    Side side;
    SignatureType signatureType;
    /// Versions 2 and 3: creation time in milliseconds, signed.
    uint256 timestamp;
    /// Versions 2 and 3: opaque data signed with the order.
    bytes32 metadata;
    /// Versions 2 and 3: builder attribution code, signed.
    bytes32 builder;
    bytes signature;
}

/// `remaining` is 0 both for an order never seen and for one fully filled; `isFilledOrCancelled` tells them apart.
struct OrderStatus {
    bool isFilledOrCancelled;
    uint256 remaining;
}
