// SPDX-License-Identifier: MIT
// The neg-risk adapter's sandbox stand-in: the neg-risk exchange mints and merges complete sets through it, with
// the same two calls as ConditionalTokens, and it forwards them to the real ConditionalTokens contract. Like
// Polymarket's adapter it knows each negative-risk event (a market id, its questions by index) and converts a set
// of No positions into the other questions' Yes positions plus collateral (`convertPositions`). Holding the
// collateral and positions only for the length of a call, it keeps nothing between transactions.
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
    function getOutcomeSlotCount(bytes32 conditionId) external view returns (uint256);
}

/// The sandbox collateral (Collateral.sol) lets named minters mint; the adapter is one (see convertPositions).
interface ICollateralMint {
    function mint(address to, uint256 amount) external;
}

contract NegRiskAdapter {
    error UnknownCollateral();
    error OnlyBinaryRootPositions();
    error TransferFailed();
    error MarketNotPrepared();
    error MarketAlreadyPrepared();
    error OnlyOracle();
    error ConditionNotPrepared();
    error TooManyQuestions();
    error FeeTooHigh();
    error InvalidIndexSet();
    error NoConvertiblePositions();

    event PositionSplit(address indexed stakeholder, bytes32 indexed conditionId, uint256 amount);
    event PositionsMerge(address indexed stakeholder, bytes32 indexed conditionId, uint256 amount);
    event PayoutRedemption(address indexed redeemer, bytes32 indexed conditionId, uint256[] amounts, uint256 payout);
    // Polymarket's adapter events, with its indexed fields (the Data API's CONVERSION rows read the last one).
    event MarketPrepared(bytes32 indexed marketId, address indexed oracle, uint256 feeBips, bytes data);
    event QuestionPrepared(bytes32 indexed marketId, bytes32 indexed questionId, uint256 index, bytes data);
    event PositionsConverted(
        address indexed stakeholder, bytes32 indexed marketId, uint256 indexed indexSet, uint256 amount
    );

    /// Where converted No positions go: Polymarket's constant, an address nobody holds a key for.
    address public constant NO_TOKEN_BURN_ADDRESS = address(bytes20(bytes32(keccak256("NO_TOKEN_BURN_ADDRESS"))));
    uint256 public constant FEE_DENOMINATOR = 10_000;
    /// A market id has its last byte clear; a question id is the market id plus the question's index.
    bytes32 private constant MARKET_MASK = bytes32(type(uint256).max) << 8;

    struct NegRiskMarket {
        address oracle;
        uint16 feeBips;
        uint8 questionCount;
    }

    IConditionalTokens public immutable ctf;
    IERC20Minimal public immutable collateral;
    /// Receives conversion fees (Polymarket's vault).
    address public immutable vault;

    mapping(bytes32 => NegRiskMarket) private markets;
    /// Question id => the ConditionalTokens condition its Yes and No positions belong to.
    mapping(bytes32 => bytes32) private conditionIds;

    constructor(address ctf_, address collateral_, address vault_) {
        ctf = IConditionalTokens(ctf_);
        collateral = IERC20Minimal(collateral_);
        vault = vault_;
        approveConditionalTokens();
    }

    /// Polymarket's prepareMarket: the caller becomes the event's oracle; the id is derived from caller, fee and
    /// data with the last byte cleared, so question ids (market id + index) stay inside the market's range.
    function prepareMarket(uint256 feeBips, bytes calldata data) external returns (bytes32 marketId) {
        if (feeBips > FEE_DENOMINATOR) revert FeeTooHigh();
        marketId = keccak256(abi.encode(msg.sender, feeBips, data)) & MARKET_MASK;
        if (markets[marketId].oracle != address(0)) revert MarketAlreadyPrepared();
        markets[marketId] = NegRiskMarket({oracle: msg.sender, feeBips: uint16(feeBips), questionCount: 0});
        emit MarketPrepared(marketId, msg.sender, feeBips, data);
    }

    /// The sandbox's prepareQuestion: Polymarket's adapter prepares the question's condition itself (it is the
    /// oracle); here the condition is already prepared with the operator as oracle, so every position id the
    /// exchanges trade stays as it was, and the event's oracle files it under the next index.
    function prepareQuestion(bytes32 marketId, bytes32 conditionId, bytes calldata data)
        external
        returns (bytes32 questionId)
    {
        NegRiskMarket storage market = markets[marketId];
        if (market.oracle == address(0)) revert MarketNotPrepared();
        if (market.oracle != msg.sender) revert OnlyOracle();
        if (market.questionCount == type(uint8).max) revert TooManyQuestions();
        if (IConditionalTokensSplitMerge(address(ctf)).getOutcomeSlotCount(conditionId) != 2) {
            revert ConditionNotPrepared();
        }
        uint256 index = market.questionCount;
        questionId = bytes32(uint256(marketId) + index);
        conditionIds[questionId] = conditionId;
        market.questionCount = uint8(index + 1);
        emit QuestionPrepared(marketId, questionId, index, data);
    }

    function getOracle(bytes32 marketId) external view returns (address) {
        return markets[marketId].oracle;
    }

    function getQuestionCount(bytes32 marketId) external view returns (uint256) {
        return markets[marketId].questionCount;
    }

    function getFeeBips(bytes32 marketId) external view returns (uint256) {
        return markets[marketId].feeBips;
    }

    function getConditionId(bytes32 questionId) public view returns (bytes32) {
        return conditionIds[questionId];
    }

    /// A question's Yes (true) or No (false) position id.
    function getPositionId(bytes32 questionId, bool outcome) public view returns (uint256) {
        bytes32 conditionId = conditionIds[questionId];
        if (conditionId == bytes32(0)) revert ConditionNotPrepared();
        return ctf.getPositionId(address(collateral), ctf.getCollectionId(bytes32(0), conditionId, outcome ? 1 : 2));
    }

    /// Polymarket's convertPositions: takes `amount` No of each question in `indexSet` (bit i = question i) and
    /// gives `amount` Yes of each other question plus (k − 1)·`amount` collateral for k No positions, less the
    /// market's fee on each (to the vault). The Yes positions come from splitting fresh collateral; their No
    /// halves and the caller's No positions go to the burn address, never to be redeemed. Polymarket's adapter
    /// mints wrapped collateral for both the splits and the payout; the sandbox adapter mints pUSD as a named
    /// minter instead. Exactly one question of the event wins, so the No positions burned (one of every
    /// question per unit) were worth exactly what was minted: (n − 1)·`amount`.
    function convertPositions(bytes32 marketId, uint256 indexSet, uint256 amount) external {
        NegRiskMarket memory market = markets[marketId];
        if (market.oracle == address(0)) revert MarketNotPrepared();
        if (market.questionCount <= 1) revert NoConvertiblePositions();
        if (indexSet == 0 || (indexSet >> market.questionCount) > 0) revert InvalidIndexSet();
        if (amount == 0) return;

        (uint256[] memory noIds, uint256[] memory yesIds) = _splitOthers(marketId, market.questionCount, indexSet, amount);
        ctf.safeBatchTransferFrom(msg.sender, NO_TOKEN_BURN_ADDRESS, noIds, _values(noIds.length, amount), "");

        uint256 fee = (amount * market.feeBips) / FEE_DENOMINATOR;
        if (noIds.length > 1) {
            uint256 multiplier = noIds.length - 1;
            if (fee > 0) ICollateralMint(address(collateral)).mint(vault, multiplier * fee);
            ICollateralMint(address(collateral)).mint(msg.sender, multiplier * (amount - fee));
        }
        if (yesIds.length > 0) {
            if (fee > 0) ctf.safeBatchTransferFrom(address(this), vault, yesIds, _values(yesIds.length, fee), "");
            ctf.safeBatchTransferFrom(address(this), msg.sender, yesIds, _values(yesIds.length, amount - fee), "");
        }
        emit PositionsConverted(msg.sender, marketId, indexSet, amount);
    }

    /// The No position ids of the questions in `indexSet`, and the Yes ids of the others, each split from `amount`
    /// freshly minted collateral; those splits' No halves go to the burn address at once.
    function _splitOthers(bytes32 marketId, uint256 questionCount, uint256 indexSet, uint256 amount)
        private
        returns (uint256[] memory noIds, uint256[] memory yesIds)
    {
        uint256 noCount;
        for (uint256 i = 0; i < questionCount; ++i) {
            if (indexSet & (1 << i) != 0) ++noCount;
        }
        noIds = new uint256[](noCount);
        yesIds = new uint256[](questionCount - noCount);
        uint256[] memory splitNoIds = new uint256[](yesIds.length);
        if (yesIds.length > 0) ICollateralMint(address(collateral)).mint(address(this), yesIds.length * amount);
        uint256 noIndex;
        uint256 yesIndex;
        for (uint256 i = 0; i < questionCount; ++i) {
            bytes32 questionId = bytes32(uint256(marketId) + i);
            if (indexSet & (1 << i) != 0) {
                noIds[noIndex++] = getPositionId(questionId, false);
            } else {
                yesIds[yesIndex] = getPositionId(questionId, true);
                splitNoIds[yesIndex++] = getPositionId(questionId, false);
                IConditionalTokensSplitMerge(address(ctf)).splitPosition(
                    address(collateral), bytes32(0), conditionIds[questionId], _partition(), amount
                );
            }
        }
        if (splitNoIds.length > 0) {
            ctf.safeBatchTransferFrom(
                address(this), NO_TOKEN_BURN_ADDRESS, splitNoIds, _values(splitNoIds.length, amount), ""
            );
        }
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
        return _values(2, amount);
    }

    function _values(uint256 length, uint256 amount) private pure returns (uint256[] memory amounts) {
        amounts = new uint256[](length);
        for (uint256 i = 0; i < length; ++i) amounts[i] = amount;
    }

    function _partition() private pure returns (uint256[] memory partition) {
        partition = new uint256[](2);
        partition[0] = 1;
        partition[1] = 2;
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
