// SPDX-License-Identifier: MIT
// The calls the sandbox makes on Gnosis' ConditionalTokens (deployed from its published artifact, unchanged).
pragma solidity ^0.8.20;

interface IConditionalTokens {
    function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes calldata data) external;
    function safeBatchTransferFrom(
        address from,
        address to,
        uint256[] calldata ids,
        uint256[] calldata values,
        bytes calldata data
    ) external;
    function balanceOf(address owner, uint256 id) external view returns (uint256);
    function setApprovalForAll(address operator, bool approved) external;
    function getCollectionId(bytes32 parentCollectionId, bytes32 conditionId, uint256 indexSet)
        external
        view
        returns (bytes32);
    function getPositionId(address collateralToken, bytes32 collectionId) external pure returns (uint256);
}

/// @notice Where the exchange mints and merges complete sets: ConditionalTokens itself, or the neg-risk adapter,
/// which offers the same two calls so one exchange contract serves both roles.
interface IOutcomeTokenFactory {
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
}
