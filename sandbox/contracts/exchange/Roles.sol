// SPDX-License-Identifier: MIT
// Admins and operators, and the trading pause. Admins manage roles, register tokens and pause; operators (the
// CLOB) settle matches. The deployer starts with both roles.
pragma solidity ^0.8.20;

abstract contract Roles {
    error NotAdmin();
    error NotOperator();
    error Paused();

    event NewAdmin(address indexed newAdminAddress, address indexed admin);
    event NewOperator(address indexed newOperatorAddress, address indexed admin);
    event RemovedAdmin(address indexed removedAdmin, address indexed admin);
    event RemovedOperator(address indexed removedOperator, address indexed admin);
    event TradingPaused(address indexed pauser);
    event TradingUnpaused(address indexed pauser);

    mapping(address => bool) private admins;
    mapping(address => bool) private operators;
    bool public paused;

    modifier onlyAdmin() {
        if (!admins[msg.sender]) revert NotAdmin();
        _;
    }

    modifier onlyOperator() {
        if (!operators[msg.sender]) revert NotOperator();
        _;
    }

    modifier notPaused() {
        if (paused) revert Paused();
        _;
    }

    constructor() {
        admins[msg.sender] = true;
        operators[msg.sender] = true;
        emit NewAdmin(msg.sender, msg.sender);
        emit NewOperator(msg.sender, msg.sender);
    }

    function isAdmin(address account) external view returns (bool) {
        return admins[account];
    }

    function isOperator(address account) external view returns (bool) {
        return operators[account];
    }

    function addAdmin(address account) external onlyAdmin {
        admins[account] = true;
        emit NewAdmin(account, msg.sender);
    }

    function addOperator(address account) external onlyAdmin {
        operators[account] = true;
        emit NewOperator(account, msg.sender);
    }

    function removeAdmin(address account) external onlyAdmin {
        admins[account] = false;
        emit RemovedAdmin(account, msg.sender);
    }

    function removeOperator(address account) external onlyAdmin {
        operators[account] = false;
        emit RemovedOperator(account, msg.sender);
    }

    function renounceAdminRole() external onlyAdmin {
        admins[msg.sender] = false;
        emit RemovedAdmin(msg.sender, msg.sender);
    }

    function renounceOperatorRole() external onlyOperator {
        operators[msg.sender] = false;
        emit RemovedOperator(msg.sender, msg.sender);
    }

    function pauseTrading() external onlyAdmin {
        paused = true;
        emit TradingPaused(msg.sender);
    }

    function unpauseTrading() external onlyAdmin {
        paused = false;
        emit TradingUnpaused(msg.sender);
    }
}
