// SPDX-License-Identifier: MIT
// Polymarket's symmetric fee, charged on what an order receives. With base rate r and price p, selling s shares
// costs r·min(p, 1−p)·s in collateral and buying s shares costs r·min(p, 1−p)·s/p in shares, so a trade and its
// mirror image pay the same.
pragma solidity ^0.8.20;

import {Side} from "./Structs.sol";

abstract contract Fees {
    error FeeTooHigh();

    event FeeCharged(address indexed receiver, uint256 tokenId, uint256 amount);

    /// 10%: the cap Polymarket's exchange enforces on any order's fee rate.
    uint256 public constant MAX_FEE_RATE_BPS = 1000;
    uint256 private constant ONE = 1e18;
    uint256 private constant BPS = 10_000;

    function getMaxFeeRate() public pure returns (uint256) {
        return MAX_FEE_RATE_BPS;
    }

    /// The order's price in 1e18 units: collateral per share, from the order's own amounts.
    function orderPrice(uint256 makerAmount, uint256 takerAmount, Side side) public pure returns (uint256) {
        if (side == Side.BUY) return takerAmount == 0 ? 0 : (makerAmount * ONE) / takerAmount;
        return makerAmount == 0 ? 0 : (takerAmount * ONE) / makerAmount;
    }

    /// @param outcomeTokens shares received (BUY) or sold (SELL) in this fill.
    /// @return fee in the asset the order receives: shares for a BUY, collateral for a SELL.
    function calculateFee(
        uint256 feeRateBps,
        uint256 outcomeTokens,
        uint256 makerAmount,
        uint256 takerAmount,
        Side side
    ) public pure returns (uint256) {
        if (feeRateBps == 0) return 0;
        uint256 price = orderPrice(makerAmount, takerAmount, side);
        if (price == 0 || price > ONE) return 0;
        uint256 distance = price < ONE - price ? price : ONE - price;
        if (side == Side.BUY) return (feeRateBps * distance * outcomeTokens) / (price * BPS);
        return (feeRateBps * distance * outcomeTokens) / (ONE * BPS);
    }
}
