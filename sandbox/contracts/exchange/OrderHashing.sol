// SPDX-License-Identifier: MIT
// EIP-712 order hashes and signature checks. An exchange instance is built for one order version: version 1
// hashes Polymarket's original struct under domain version "1"; versions 2 and 3 hash the newer struct
// (timestamp, metadata, builder; no taker, nonce, expiration or fee) under domain version "2" or "3".
pragma solidity ^0.8.20;

import {Order, SignatureType} from "./Structs.sol";

abstract contract OrderHashing {
    error InvalidSignature();
    error UnsupportedOrderVersion();

    string public constant DOMAIN_NAME = "Polymarket CTF Exchange";
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 public constant ORDER_V1_TYPEHASH = keccak256(
        "Order(uint256 salt,address maker,address signer,address taker,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,uint256 expiration,uint256 nonce,uint256 feeRateBps,uint8 side,uint8 signatureType)"
    );
    bytes32 public constant ORDER_V2_TYPEHASH = keccak256(
        "Order(uint256 salt,address maker,address signer,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,uint8 side,uint8 signatureType,uint256 timestamp,bytes32 metadata,bytes32 builder)"
    );
    /// Above this s a signature is the malleable twin of another one (EIP-2).
    uint256 private constant MAX_S = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    uint8 public immutable orderVersion;

    constructor(uint8 version) {
        if (version < 1 || version > 3) revert UnsupportedOrderVersion();
        orderVersion = version;
    }

    /// Computed per call rather than cached so it follows the chain id of the chain it runs on.
    function domainSeparator() public view returns (bytes32) {
        bytes memory version = new bytes(1);
        version[0] = bytes1(uint8(48) + orderVersion);
        return keccak256(
            abi.encode(DOMAIN_TYPEHASH, keccak256(bytes(DOMAIN_NAME)), keccak256(version), block.chainid, address(this))
        );
    }

    function hashOrder(Order memory order) public view returns (bytes32) {
        return keccak256(abi.encodePacked("\x19\x01", domainSeparator(), _structHash(order)));
    }

    function _structHash(Order memory order) private view returns (bytes32) {
        // Encoded in two halves only to stay within the legacy code generator's stack; abi.encode of the halves
        // concatenated is byte for byte the encoding of all fields at once.
        if (orderVersion == 1) {
            return keccak256(
                bytes.concat(
                    abi.encode(ORDER_V1_TYPEHASH, order.salt, order.maker, order.signer, order.taker, order.tokenId),
                    abi.encode(
                        order.makerAmount,
                        order.takerAmount,
                        order.expiration,
                        order.nonce,
                        order.feeRateBps,
                        order.side,
                        order.signatureType
                    )
                )
            );
        }
        return keccak256(
            bytes.concat(
                abi.encode(ORDER_V2_TYPEHASH, order.salt, order.maker, order.signer, order.tokenId, order.makerAmount),
                abi.encode(
                    order.takerAmount, order.side, order.signatureType, order.timestamp, order.metadata, order.builder
                )
            )
        );
    }

    /// Reverts with InvalidSignature unless the order's signer signed this hash and may act for its maker.
    function validateOrderSignature(bytes32 orderHash, Order memory order) public view {
        if (!isValidSignature(order.signer, order.maker, orderHash, order.signature, order.signatureType)) {
            revert InvalidSignature();
        }
    }

    function isValidSignature(
        address signer,
        address maker,
        bytes32 orderHash,
        bytes memory signature,
        SignatureType signatureType
    ) public view virtual returns (bool) {
        if (signer == address(0)) return false;
        // POLY_1271 (deposit wallets): the wallet is both maker and signer and judges the signature itself.
        if (signatureType == SignatureType.POLY_1271) return signer == maker && isValidContractSignature(maker, orderHash, signature);
        if (recoverSigner(orderHash, signature) != signer) return false;
        if (signatureType == SignatureType.EOA) return signer == maker;
        address wallet = _walletOf(signatureType, signer);
        return wallet != address(0) && wallet == maker;
    }

    /// ERC-1271: true only if `wallet` has code and its isValidSignature answers the magic value 0x1626ba7e.
    function isValidContractSignature(address wallet, bytes32 hash, bytes memory signature) public view returns (bool) {
        if (wallet.code.length == 0) return false;
        // A low-level call, so a wallet that reverts or answers garbage is a refusal, not a revert.
        (bool ok, bytes memory answer) = wallet.staticcall(abi.encodeWithSelector(0x1626ba7e, hash, signature));
        return ok && answer.length == 32 && bytes4(answer) == 0x1626ba7e;
    }

    /// The contract wallet of the given kind that `signer` controls, or 0 if there is none.
    function _walletOf(SignatureType signatureType, address signer) internal view virtual returns (address);

    /// ecrecover with the checks it lacks: exact length, v in {27, 28} (0/1 accepted), low s.
    function recoverSigner(bytes32 digest, bytes memory signature) public pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(signature, 32))
            s := mload(add(signature, 64))
            v := byte(0, mload(add(signature, 96)))
        }
        if (v < 27) v += 27;
        if (v != 27 && v != 28) return address(0);
        if (uint256(s) > MAX_S) return address(0);
        return ecrecover(digest, v, r, s);
    }
}
