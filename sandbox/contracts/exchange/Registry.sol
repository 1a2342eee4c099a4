// SPDX-License-Identifier: MIT
// The token registry: which outcome tokens trade here, each paired with its complement and its condition. Only
// registered tokens trade, and MINT/MERGE need the pair to split or merge complete sets.
pragma solidity ^0.8.20;

import {Roles} from "./Roles.sol";

abstract contract Registry is Roles {
    error InvalidComplement();
    error InvalidTokenId();
    error AlreadyRegistered();

    event TokenRegistered(uint256 indexed token0, uint256 indexed token1, bytes32 indexed conditionId);

    struct TokenEntry {
        uint256 complement;
        bytes32 conditionId;
    }

    mapping(uint256 => TokenEntry) private registry;

    /// Registers the pair both ways, so either token finds its complement.
    function registerToken(uint256 token, uint256 complement, bytes32 conditionId) external onlyAdmin {
        if (token == complement) revert InvalidComplement();
        if (token == 0 || complement == 0) revert InvalidTokenId();
        if (registry[token].complement != 0 || registry[complement].complement != 0) revert AlreadyRegistered();
        registry[token] = TokenEntry(complement, conditionId);
        registry[complement] = TokenEntry(token, conditionId);
        emit TokenRegistered(token, complement, conditionId);
        emit TokenRegistered(complement, token, conditionId);
    }

    function getComplement(uint256 token) public view returns (uint256) {
        validateTokenId(token);
        return registry[token].complement;
    }

    function getConditionId(uint256 token) public view returns (bytes32) {
        validateTokenId(token);
        return registry[token].conditionId;
    }

    function validateTokenId(uint256 token) public view {
        if (registry[token].complement == 0) revert InvalidTokenId();
    }

    function validateComplement(uint256 token, uint256 complement) public view {
        if (getComplement(token) != complement) revert InvalidComplement();
    }
}
