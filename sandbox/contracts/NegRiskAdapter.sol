// SPDX-License-Identifier: MIT
// The neg-risk adapter's sandbox stand-in: the neg-risk exchange mints and merges complete sets through it, with
// the same two calls as ConditionalTokens, and it forwards them to the real ConditionalTokens contract. Holding
// the collateral and positions only for the length of a call, it keeps nothing between transactions.
// 0.8.21: the constructor reads immutables it has just set.
pragma solidity ^0.8.21;

import {IERC20Minimal} from "./interfaces/IERC20Minimal.sol";
import {IConditionalTokens} from "./interfaces/IConditionalTokens.sol";

interface IConditionalTokensSplitMerge {
    function splitPosition(
        address collateralToken,
        bytes32 parentCollectionId,
        bytes32 conditionId,
        uint256[] calldata partition,
        uint256 amount
    ) external;
    function mergePositions(
        address collateralToken,
        bytes32 parentCollectionId,
        bytes32 conditionId,
        uint256[] calldata partition,
        uint256 amount
    ) external;
    function redeemPositions(address collateralToken, bytes32 parentCollectionId, bytes32 conditionId, uint256[] calldata indexSets)
        external;
}

contract NegRiskAdapter {
    error UnknownCollateral();
    error OnlyBinaryRootPositions();
    error TransferFailed();

    event PositionSplit(address indexed stakeholder, bytes32 indexed conditionId, uint256 amount);
    event PositionsMerge(address indexed stakeholder, bytes32 indexed conditionId, uint256 amount);
    event PayoutRedemption(address indexed redeemer, bytes32 indexed conditionId, uint256[] amounts, uint256 payout);

    IConditionalTokens public immutable ctf;
    IERC20Minimal public immutable collateral;

    constructor(address ctf_, address collateral_) {
        ctf = IConditionalTokens(ctf_);
        collateral = IERC20Minimal(collateral_);
        approveConditionalTokens();
    }

    /// Splitting pulls collateral into ConditionalTokens. Public and idempotent so the approval can be granted
    /// again when the sandbox moves the contract to another address, where the constructor never ran.
    function approveConditionalTokens() public {
        collateral.approve(address(ctf), type(uint256).max);
    }

    /// The two position ids of a binary condition: index set 1 (first outcome) and 2 (second outcome).
    function getPositionIds(bytes32 conditionId) public view returns (uint256[] memory ids) {
        ids = new uint256[](2);
        ids[0] = ctf.getPositionId(address(collateral), ctf.getCollectionId(bytes32(0), conditionId, 1));
        ids[1] = ctf.getPositionId(address(collateral), ctf.getCollectionId(bytes32(0), conditionId, 2));
    }

    /// Takes `amount` collateral from the caller and gives it `amount` of each outcome token.
    function splitPosition(
        address collateralToken,
        bytes32 parentCollectionId,
        bytes32 conditionId,
        uint256[] calldata partition,
        uint256 amount
    ) external {
        _checkArguments(collateralToken, parentCollectionId, partition);
        if (!collateral.transferFrom(msg.sender, address(this), amount)) revert TransferFailed();
        IConditionalTokensSplitMerge(address(ctf)).splitPosition(
            address(collateral), bytes32(0), conditionId, partition, amount
        );
        ctf.safeBatchTransferFrom(address(this), msg.sender, getPositionIds(conditionId), _pair(amount), "");
        emit PositionSplit(msg.sender, conditionId, amount);
    }

    /// Takes `amount` of each outcome token from the caller and gives it `amount` collateral.
    function mergePositions(
        address collateralToken,
        bytes32 parentCollectionId,
        bytes32 conditionId,
        uint256[] calldata partition,
        uint256 amount
    ) external {
        _checkArguments(collateralToken, parentCollectionId, partition);
        ctf.safeBatchTransferFrom(msg.sender, address(this), getPositionIds(conditionId), _pair(amount), "");
        IConditionalTokensSplitMerge(address(ctf)).mergePositions(
            address(collateral), bytes32(0), conditionId, partition, amount
        );
        if (!collateral.transfer(msg.sender, amount)) revert TransferFailed();
        emit PositionsMerge(msg.sender, conditionId, amount);
    }

    /// Polymarket's NegRiskAdapter.redeemPositions(bytes32, uint256[]): takes `amounts` ([first, second] outcome)
    /// of the caller's positions of a resolved condition, redeems them on ConditionalTokens and pays the caller
    /// the collateral they were worth.
    function redeemPositions(bytes32 conditionId, uint256[] calldata amounts) external {
        if (amounts.length != 2) revert OnlyBinaryRootPositions();
        ctf.safeBatchTransferFrom(msg.sender, address(this), getPositionIds(conditionId), amounts, "");
        uint256 before = collateral.balanceOf(address(this));
        uint256[] memory indexSets = new uint256[](2);
        indexSets[0] = 1;
        indexSets[1] = 2;
        IConditionalTokensSplitMerge(address(ctf)).redeemPositions(address(collateral), bytes32(0), conditionId, indexSets);
        uint256 payout = collateral.balanceOf(address(this)) - before;
        if (payout > 0 && !collateral.transfer(msg.sender, payout)) revert TransferFailed();
        emit PayoutRedemption(msg.sender, conditionId, amounts, payout);
    }

    function _checkArguments(address collateralToken, bytes32 parentCollectionId, uint256[] calldata partition)
        private
        view
    {
        if (collateralToken != address(collateral)) revert UnknownCollateral();
        if (parentCollectionId != bytes32(0) || partition.length != 2 || partition[0] != 1 || partition[1] != 2) {
            revert OnlyBinaryRootPositions();
        }
    }

    function _pair(uint256 amount) private pure returns (uint256[] memory amounts) {
        amounts = new uint256[](2);
        amounts[0] = amount;
        amounts[1] = amount;
    }

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
        return interfaceId == 0x01ffc9a7 || interfaceId == 0x4e2312e0;
    }
}
