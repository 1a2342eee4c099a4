// SPDX-License-Identifier: MIT
// Where each Polymarket account kind lives: the CREATE2 formulas of the proxy-wallet, Safe and deposit-wallet
// factories (docs/protocol.md#address-derivation), in one place so the factories that deploy and the exchange that verifies
// can never disagree about an address.
pragma solidity ^0.8.20;

import {SafeProxy} from "./SafeProxy.sol";

library WalletAddresses {
    /// EIP-1014: last 20 bytes of keccak256(0xff ‖ deployer ‖ salt ‖ keccak256(initCode)).
    function create2Address(address deployer, bytes32 salt, bytes32 initCodeHash) internal pure returns (address) {
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), deployer, salt, initCodeHash)))));
    }

    // ---------------------------------------------------------------- proxy wallets (signature type 1)

    /// The FactoryLib clone: a 99-byte constructor that delegatecalls the factory's cloneConstructor(bytes) and
    /// returns an EIP-1167 proxy to `implementation`, followed by that call's data with empty bytes (167 bytes).
    function proxyWalletCreationCode(address factory, address implementation) internal pure returns (bytes memory) {
        return abi.encodePacked(
            hex"3d3d606380380380913d393d73",
            factory,
            hex"5af4602a57600080fd5b602d8060366000396000f3363d3d373d3d3d363d73",
            implementation,
            hex"5af43d82803e903d91602b57fd5bf3",
            abi.encodeWithSignature("cloneConstructor(bytes)", new bytes(0))
        );
    }

    /// Salt: the owner's 20 raw bytes (encodePacked), unlike the Safe's padded word.
    function proxyWalletSalt(address owner) internal pure returns (bytes32) {
        return keccak256(abi.encodePacked(owner));
    }

    function proxyWallet(address factory, address implementation, address owner) internal pure returns (address) {
        return create2Address(
            factory, proxyWalletSalt(owner), keccak256(proxyWalletCreationCode(factory, implementation))
        );
    }

    // ---------------------------------------------------------------- Safes (signature type 2)

    /// The Safe proxy's creation code followed by abi.encode(masterCopy), as SafeProxyFactory deploys it.
    function safeInitCode(address masterCopy) internal pure returns (bytes memory) {
        return abi.encodePacked(type(SafeProxy).creationCode, abi.encode(masterCopy));
    }

    /// Salt: the owner left-padded to 32 bytes (abi.encode).
    function safeSalt(address owner) internal pure returns (bytes32) {
        return keccak256(abi.encode(owner));
    }

    function safe(address factory, address masterCopy, address owner) internal pure returns (address) {
        return create2Address(factory, safeSalt(owner), keccak256(safeInitCode(masterCopy)));
    }

    // ---------------------------------------------------------------- deposit wallets (signature type 3)

    /// The clone's immutable arguments: abi.encode(factory, walletId) with walletId = bytes32(owner).
    function depositWalletArgs(address factory, address owner) internal pure returns (bytes memory) {
        return abi.encode(factory, bytes32(uint256(uint160(owner))));
    }

    /// Solady's ERC-1967 beacon proxy with immutable arguments (the factory's beacon era): the constructor
    /// stores the beacon in the ERC-1967 beacon slot and returns a runtime that asks the beacon for
    /// implementation() and delegatecalls it; the arguments sit at the end of the runtime code.
    function depositWalletInitCode(address beacon, bytes memory args) internal pure returns (bytes memory) {
        uint80 prefix = uint80(0x6100523d8160233d3973 + (args.length << 56));
        return abi.encodePacked(
            bytes10(prefix),
            beacon,
            hex"60195155f3363d3d373d3d363d602036600436635c60da",
            hex"1b60e01b36527fa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6c",
            hex"b3582b35133d50545afa5036515af43d6000803e604d573d6000fd5b3d6000f3",
            args
        );
    }

    function depositWallet(address factory, address beacon, address owner) internal pure returns (address) {
        bytes memory args = depositWalletArgs(factory, owner);
        return create2Address(factory, keccak256(args), keccak256(depositWalletInitCode(beacon, args)));
    }
}
