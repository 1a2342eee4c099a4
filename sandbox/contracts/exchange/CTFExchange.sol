// SPDX-License-Identifier: MIT
// The sandbox's exchange, modelled on Polymarket's CTF Exchange: the operator (the CLOB) settles signed orders
// on the chain. It pulls each side's assets with the allowances traders granted, mints or merges complete sets
// through its outcome-token factory when two buys or two sells meet, pays each order its proceeds minus the
// fee, and gives any price improvement to the taker. From order version 2 on nothing fee-related is signed: the
// operator sets the taker's platform fee at match time (matchOrdersWithFee), paid in collateral to the fee
// recipient on top of what a buying taker pays or out of what a selling taker receives. Deployed twice: as the exchange (factory =
// ConditionalTokens) and as the neg-risk exchange (factory = the neg-risk adapter).
// 0.8.21: the constructor reads immutables it has just set.
pragma solidity ^0.8.21;

import {IERC20Minimal} from "../interfaces/IERC20Minimal.sol";
import {IConditionalTokens, IOutcomeTokenFactory} from "../interfaces/IConditionalTokens.sol";
import {Order, OrderStatus, Side, MatchType} from "./Structs.sol";
import {Registry} from "./Registry.sol";
import {OrderHashing} from "./OrderHashing.sol";
import {WalletFactories} from "./WalletFactories.sol";
import {Fees} from "./Fees.sol";

contract CTFExchange is Registry, WalletFactories, Fees {
    error NotOwner();
    error NotTaker();
    error OrderFilledOrCancelled();
    error OrderExpired();
    error InvalidNonce();
    error MakingGtRemaining();
    error NotCrossing();
    error TooLittleTokensReceived();
    error MismatchedTokenIds();
    error MismatchedArrayLengths();
    error Reentrancy();
    error TransferFailed();

    event OrderFilled(
        bytes32 indexed orderHash,
        address indexed maker,
        address indexed taker,
        uint256 makerAssetId,
        uint256 takerAssetId,
        uint256 makerAmountFilled,
        uint256 takerAmountFilled,
        uint256 fee
    );
    event OrdersMatched(
        bytes32 indexed takerOrderHash,
        address indexed takerOrderMaker,
        uint256 makerAssetId,
        uint256 takerAssetId,
        uint256 makerAmountFilled,
        uint256 takerAmountFilled
    );
    event OrderCancelled(bytes32 indexed orderHash);
    event FeeRecipientSet(address indexed recipient);

    IERC20Minimal private immutable collateral;
    IConditionalTokens private immutable ctf;
    address private immutable outcomeTokenFactory;

    mapping(bytes32 => OrderStatus) private orderStatus;
    mapping(address => uint256) public nonces;
    /// Where match-time platform fees go; unset, they go to the operator that matched.
    address public feeRecipient;
    bool private entered;

    modifier nonReentrant() {
        if (entered) revert Reentrancy();
        entered = true;
        _;
        entered = false;
    }

    constructor(address collateral_, address ctf_, address outcomeTokenFactory_, uint8 orderVersion_)
        OrderHashing(orderVersion_)
    {
        collateral = IERC20Minimal(collateral_);
        ctf = IConditionalTokens(ctf_);
        outcomeTokenFactory = outcomeTokenFactory_;
        approveOutcomeTokenFactory();
    }

    /// Minting pulls collateral into the factory; merging through an adapter pulls outcome tokens into it.
    /// Public and idempotent so the approvals can be granted again when the sandbox moves the contract to
    /// another address (Polymarket's Amoy addresses), where the constructor never ran.
    function approveOutcomeTokenFactory() public {
        collateral.approve(outcomeTokenFactory, type(uint256).max);
        if (outcomeTokenFactory != address(ctf)) ctf.setApprovalForAll(outcomeTokenFactory, true);
    }

    function setFeeRecipient(address recipient) external onlyAdmin {
        feeRecipient = recipient;
        emit FeeRecipientSet(recipient);
    }

    // ---------------------------------------------------------------- views

    function getCollateral() external view returns (address) {
        return address(collateral);
    }

    function getCtf() external view returns (address) {
        return address(ctf);
    }

    function getOutcomeTokenFactory() external view returns (address) {
        return outcomeTokenFactory;
    }

    function getOrderStatus(bytes32 orderHash) external view returns (OrderStatus memory) {
        return orderStatus[orderHash];
    }

    function isValidNonce(address user, uint256 nonce) public view returns (bool) {
        return nonces[user] == nonce;
    }

    // ---------------------------------------------------------------- traders

    /// Cancels every version-1 order the caller signed with its current nonce.
    function incrementNonce() external {
        nonces[msg.sender] += 1;
    }

    function cancelOrder(Order memory order) external {
        _cancel(order);
    }

    function cancelOrders(Order[] memory orders) external {
        for (uint256 i = 0; i < orders.length; ++i) {
            _cancel(orders[i]);
        }
    }

    function _cancel(Order memory order) private {
        if (order.maker != msg.sender) revert NotOwner();
        bytes32 orderHash = hashOrder(order);
        OrderStatus storage status = orderStatus[orderHash];
        if (status.isFilledOrCancelled) revert OrderFilledOrCancelled();
        status.isFilledOrCancelled = true;
        emit OrderCancelled(orderHash);
    }

    // ---------------------------------------------------------------- operator

    /// Fills an order with the operator as its counterparty.
    function fillOrder(Order memory order, uint256 fillAmount) external onlyOperator notPaused nonReentrant {
        _fillOrder(order, fillAmount);
    }

    function fillOrders(Order[] memory orders, uint256[] memory fillAmounts)
        external
        onlyOperator
        notPaused
        nonReentrant
    {
        if (orders.length != fillAmounts.length) revert MismatchedArrayLengths();
        for (uint256 i = 0; i < orders.length; ++i) {
            _fillOrder(orders[i], fillAmounts[i]);
        }
    }

    /// Settles a taker order against maker orders.
    /// @param takerFillAmount and makerFillAmounts are in terms of each order's maker amount.
    function matchOrders(
        Order memory takerOrder,
        Order[] memory makerOrders,
        uint256 takerFillAmount,
        uint256[] memory makerFillAmounts
    ) external onlyOperator notPaused nonReentrant {
        _matchOrders(takerOrder, makerOrders, takerFillAmount, makerFillAmounts, 0);
    }

    /// The same, charging the taker a platform fee in collateral that the operator computed for this match
    /// (Polymarket's V2 fee: the market's rate and exponent at the fill prices, taker only).
    function matchOrdersWithFee(
        Order memory takerOrder,
        Order[] memory makerOrders,
        uint256 takerFillAmount,
        uint256[] memory makerFillAmounts,
        uint256 takerFeeAmount
    ) external onlyOperator notPaused nonReentrant {
        _matchOrders(takerOrder, makerOrders, takerFillAmount, makerFillAmounts, takerFeeAmount);
    }

    function _matchOrders(
        Order memory takerOrder,
        Order[] memory makerOrders,
        uint256 takerFillAmount,
        uint256[] memory makerFillAmounts,
        uint256 platformFee
    ) private {
        if (makerOrders.length != makerFillAmounts.length) revert MismatchedArrayLengths();
        (bytes32 takerHash, uint256 minTaking) = _checkAndRecordFill(takerOrder, takerFillAmount, msg.sender);
        (uint256 makerAssetId, uint256 takerAssetId) = _assetIds(takerOrder);

        _transfer(takerOrder.maker, address(this), makerAssetId, takerFillAmount);
        for (uint256 i = 0; i < makerOrders.length; ++i) {
            _fillMakerOrder(takerOrder, makerOrders[i], makerFillAmounts[i]);
        }

        // Whatever the makers left of the taker's wanted asset is the taker's, price improvement included.
        uint256 taking = _balance(takerAssetId);
        if (taking < minTaking) revert TooLittleTokensReceived();
        uint256 fee = _orderFee(takerOrder, takerFillAmount, taking);
        if (takerOrder.side == Side.SELL) {
            // The platform fee comes out of the seller's proceeds, before they are paid.
            if (fee + platformFee > taking) revert FeeTooHigh();
            _chargePlatformFee(address(this), platformFee);
            _payProceeds(takerOrder.maker, takerAssetId, taking - platformFee, fee);
        } else {
            _payProceeds(takerOrder.maker, takerAssetId, taking, fee);
            // A buyer pays it in collateral on top of the price, with the allowance it gave the exchange.
            _chargePlatformFee(takerOrder.maker, platformFee);
        }

        uint256 refund = _balance(makerAssetId);
        if (refund > 0) _transfer(address(this), takerOrder.maker, makerAssetId, refund);

        emit OrderFilled(
            takerHash,
            takerOrder.maker,
            address(this),
            makerAssetId,
            takerAssetId,
            takerFillAmount,
            taking,
            fee + platformFee
        );
        emit OrdersMatched(takerHash, takerOrder.maker, makerAssetId, takerAssetId, takerFillAmount, taking);
    }

    /// Sends a match-time platform fee in collateral from `from` to the fee recipient (the operator if unset).
    function _chargePlatformFee(address from, uint256 fee) private {
        if (fee == 0) return;
        address recipient = feeRecipient == address(0) ? msg.sender : feeRecipient;
        _transfer(from, recipient, 0, fee);
        emit FeeCharged(recipient, 0, fee);
    }

    // ---------------------------------------------------------------- settlement

    function _fillOrder(Order memory order, uint256 fillAmount) private {
        (bytes32 orderHash, uint256 taking) = _checkAndRecordFill(order, fillAmount, msg.sender);
        (uint256 makerAssetId, uint256 takerAssetId) = _assetIds(order);
        uint256 fee = _orderFee(order, fillAmount, taking);
        // The operator keeps the fee by paying the maker that much less.
        _transfer(msg.sender, order.maker, takerAssetId, taking - fee);
        _transfer(order.maker, msg.sender, makerAssetId, fillAmount);
        if (fee > 0) emit FeeCharged(msg.sender, takerAssetId, fee);
        emit OrderFilled(orderHash, order.maker, msg.sender, makerAssetId, takerAssetId, fillAmount, taking, fee);
    }

    function _fillMakerOrder(Order memory takerOrder, Order memory makerOrder, uint256 fillAmount) private {
        MatchType matchType = _matchType(takerOrder, makerOrder);
        _validateTakerAndMaker(takerOrder, makerOrder, matchType);
        (bytes32 orderHash, uint256 taking) = _checkAndRecordFill(makerOrder, fillAmount, takerOrder.maker);
        (uint256 makerAssetId, uint256 takerAssetId) = _assetIds(makerOrder);

        _transfer(makerOrder.maker, address(this), makerAssetId, fillAmount);
        if (matchType == MatchType.MINT) {
            // Both pay collateral: split exactly the shares this maker buys; the taker's side of the sets stays here.
            IOutcomeTokenFactory(outcomeTokenFactory).splitPosition(
                address(collateral), bytes32(0), getConditionId(makerOrder.tokenId), _binaryPartition(), taking
            );
        } else if (matchType == MatchType.MERGE) {
            // Both sell shares: merge this maker's shares with as many of the taker's into collateral.
            IOutcomeTokenFactory(outcomeTokenFactory).mergePositions(
                address(collateral), bytes32(0), getConditionId(makerOrder.tokenId), _binaryPartition(), fillAmount
            );
        }

        uint256 fee = _orderFee(makerOrder, fillAmount, taking);
        _payProceeds(makerOrder.maker, takerAssetId, taking, fee);
        emit OrderFilled(
            orderHash, makerOrder.maker, takerOrder.maker, makerAssetId, takerAssetId, fillAmount, taking, fee
        );
    }

    /// Sends an order's proceeds from the exchange, the fee to the operator.
    function _payProceeds(address maker, uint256 assetId, uint256 amount, uint256 fee) private {
        _transfer(address(this), maker, assetId, amount - fee);
        if (fee > 0) {
            _transfer(address(this), msg.sender, assetId, fee);
            emit FeeCharged(msg.sender, assetId, fee);
        }
    }

    /// Validates an order, checks the fill against what remains, records it and returns the amount it receives.
    function _checkAndRecordFill(Order memory order, uint256 making, address counterparty)
        private
        returns (bytes32 orderHash, uint256 taking)
    {
        orderHash = hashOrder(order);
        _validateOrder(orderHash, order, counterparty);

        OrderStatus storage status = orderStatus[orderHash];
        uint256 remaining = status.remaining == 0 ? order.makerAmount : status.remaining;
        if (making > remaining) revert MakingGtRemaining();
        unchecked {
            remaining -= making;
        }
        status.remaining = remaining;
        if (remaining == 0) status.isFilledOrCancelled = true;

        // Rounded down: an order never receives more than its signed price allows.
        taking = (making * order.takerAmount) / order.makerAmount;
    }

    function _validateOrder(bytes32 orderHash, Order memory order, address counterparty) private view {
        if (order.expiration > 0 && order.expiration < block.timestamp) revert OrderExpired();
        validateOrderSignature(orderHash, order);
        if (order.feeRateBps > MAX_FEE_RATE_BPS) revert FeeTooHigh();
        validateTokenId(order.tokenId);
        if (orderStatus[orderHash].isFilledOrCancelled) revert OrderFilledOrCancelled();
        // Taker and nonce are signed only in version 1; later versions have neither.
        if (orderVersion == 1) {
            if (order.nonce != nonces[order.maker]) revert InvalidNonce();
            if (order.taker != address(0) && order.taker != counterparty) revert NotTaker();
        }
    }

    function _validateTakerAndMaker(Order memory takerOrder, Order memory makerOrder, MatchType matchType)
        private
        view
    {
        if (!isCrossing(takerOrder, makerOrder)) revert NotCrossing();
        if (matchType == MatchType.COMPLEMENTARY) {
            if (takerOrder.tokenId != makerOrder.tokenId) revert MismatchedTokenIds();
        } else {
            validateComplement(takerOrder.tokenId, makerOrder.tokenId);
        }
    }

    /// Prices compared by cross-multiplication, so no rounding decides whether two orders meet.
    function isCrossing(Order memory a, Order memory b) public pure returns (bool) {
        if (a.side == Side.BUY) {
            // BUY vs SELL of the same token: the buy price is at least the sell price.
            if (b.side == Side.SELL) return a.makerAmount * b.makerAmount >= a.takerAmount * b.takerAmount;
            // MINT: the two buy prices pay for a complete set.
            return a.makerAmount * b.takerAmount + b.makerAmount * a.takerAmount >= a.takerAmount * b.takerAmount;
        }
        if (b.side == Side.BUY) return b.makerAmount * a.makerAmount >= b.takerAmount * a.takerAmount;
        // MERGE: the two sell prices together ask no more than a complete set returns.
        return a.takerAmount * b.makerAmount + b.takerAmount * a.makerAmount <= a.makerAmount * b.makerAmount;
    }

    function _matchType(Order memory takerOrder, Order memory makerOrder) private pure returns (MatchType) {
        if (takerOrder.side == Side.BUY && makerOrder.side == Side.BUY) return MatchType.MINT;
        if (takerOrder.side == Side.SELL && makerOrder.side == Side.SELL) return MatchType.MERGE;
        return MatchType.COMPLEMENTARY;
    }

    function _orderFee(Order memory order, uint256 making, uint256 taking) private pure returns (uint256) {
        uint256 outcomeTokens = order.side == Side.BUY ? taking : making;
        return calculateFee(order.feeRateBps, outcomeTokens, order.makerAmount, order.takerAmount, order.side);
    }

    /// Asset id 0 stands for collateral; position ids are hashes and never 0.
    function _assetIds(Order memory order) private pure returns (uint256 makerAssetId, uint256 takerAssetId) {
        if (order.side == Side.BUY) return (0, order.tokenId);
        return (order.tokenId, 0);
    }

    function _binaryPartition() private pure returns (uint256[] memory partition) {
        partition = new uint256[](2);
        partition[0] = 1;
        partition[1] = 2;
    }

    function _balance(uint256 assetId) private view returns (uint256) {
        if (assetId == 0) return collateral.balanceOf(address(this));
        return ctf.balanceOf(address(this), assetId);
    }

    function _transfer(address from, address to, uint256 assetId, uint256 amount) private {
        if (amount == 0) return;
        if (assetId == 0) {
            bool ok = from == address(this) ? collateral.transfer(to, amount) : collateral.transferFrom(from, to, amount);
            if (!ok) revert TransferFailed();
        } else {
            ctf.safeTransferFrom(from, to, assetId, amount, "");
        }
    }

    // ---------------------------------------------------------------- ERC-1155 receiver

    function onERC1155Received(address, address, uint256, uint256, bytes calldata) external pure returns (bytes4) {
        return this.onERC1155Received.selector;
    }

    function onERC1155BatchReceived(address, address, uint256[] calldata, uint256[] calldata, bytes calldata)
        external
        pure
        returns (bytes4)
    {
        return this.onERC1155BatchReceived.selector;
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        // ERC-165 and ERC-1155 receiver.
        return interfaceId == 0x01ffc9a7 || interfaceId == 0x4e2312e0;
    }
}
