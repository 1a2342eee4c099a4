// SPDX-License-Identifier: MIT
// Deploys one ContractWallet per owner at a CREATE2 address derived from the owner alone, so anyone (the
// exchange, the CLOB) can tell from a signer which wallet it controls, as Polymarket's proxy and Safe factories
// allow. The sandbox deploys two instances: one plays the proxy-wallet factory, the other the Safe factory.
pragma solidity ^0.8.20;

import {ContractWallet} from "./ContractWallet.sol";

contract WalletFactory {
    event WalletCreated(address indexed owner, address wallet);

    /// The wallet `owner` has or will have; it need not be deployed yet.
    function walletOf(address owner) public view returns (address) {
        bytes32 initCodeHash = keccak256(abi.encodePacked(type(ContractWallet).creationCode, abi.encode(owner)));
        bytes32 digest = keccak256(abi.encodePacked(bytes1(0xff), address(this), _salt(owner), initCodeHash));
        return address(uint160(uint256(digest)));
    }

    /// Deploys `owner`'s wallet; anyone may pay for it, only the owner controls it.
    function createWallet(address owner) external returns (address wallet) {
        wallet = address(new ContractWallet{salt: _salt(owner)}(owner));
        emit WalletCreated(owner, wallet);
    }

    function _salt(address owner) private pure returns (bytes32) {
        return keccak256(abi.encodePacked(owner));
    }
}
