// SPDX-License-Identifier: MIT
// Polymarket's ProxyWalletFactory without the gas-station relay: an EOA calls proxy(calls) directly, the
// factory deploys the EOA's clone on first use (CREATE2, salt keccak256(encodePacked(owner)), FactoryLib
// creation code) and runs the calls as that wallet.
pragma solidity ^0.8.20;

import {ProxyWallet, ProxyCall} from "./ProxyWallet.sol";
import {WalletAddresses} from "./WalletAddresses.sol";

contract ProxyWalletFactory {
    event WalletCreated(address indexed owner, address wallet);

    address private immutable implementation;

    constructor() {
        implementation = address(new ProxyWallet());
    }

    function getImplementation() external view returns (address) {
        return implementation;
    }

    /// The proxy wallet `owner` has or will have; it need not be deployed yet.
    function walletOf(address owner) public view returns (address) {
        return WalletAddresses.proxyWallet(address(this), implementation, owner);
    }

    /// Runs `calls` as the caller's proxy wallet, creating the wallet first if it has no code yet.
    function proxy(ProxyCall[] calldata calls) external payable returns (bytes[] memory) {
        address wallet = walletOf(msg.sender);
        if (wallet.code.length == 0) _makeWallet(msg.sender);
        return ProxyWallet(payable(wallet)).proxy{value: msg.value}(calls);
    }

    /// The clone's constructor delegatecalls this; there is nothing to set up before initialize().
    function cloneConstructor(bytes calldata) external {}

    function _makeWallet(address owner) private {
        bytes memory code = WalletAddresses.proxyWalletCreationCode(address(this), implementation);
        bytes32 salt = WalletAddresses.proxyWalletSalt(owner);
        address wallet;
        assembly {
            wallet := create2(0, add(code, 0x20), mload(code), salt)
        }
        require(wallet != address(0), "create2 failed");
        ProxyWallet(payable(wallet)).initialize();
        emit WalletCreated(owner, wallet);
    }

    receive() external payable {}
}
