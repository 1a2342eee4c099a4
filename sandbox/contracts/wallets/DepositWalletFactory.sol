// SPDX-License-Identifier: MIT
// The deposit-wallet factory in its beacon era (signature type 3): one Solady ERC-1967 beacon proxy per
// owner at CREATE2 salt keccak256(abi.encode(factory, bytes32(owner))), the same 64 bytes appended to the
// proxy's code as its immutable arguments. Polymarket's relayer deploys these; in the sandbox anyone may,
// since the owner is fixed by the address itself. BEACON() is what clients probe to pick the beacon formula.
pragma solidity ^0.8.20;

import {WalletAddresses} from "./WalletAddresses.sol";

/// The beacon every deposit wallet asks for its implementation; its owner may upgrade all wallets at once.
contract DepositWalletBeacon {
    event Upgraded(address indexed implementation);

    address public implementation;
    address public immutable owner;

    constructor(address implementation_) {
        owner = msg.sender;
        implementation = implementation_;
        emit Upgraded(implementation_);
    }

    function upgradeTo(address implementation_) external {
        require(msg.sender == owner, "not the beacon owner");
        implementation = implementation_;
        emit Upgraded(implementation_);
    }
}

contract DepositWalletFactory {
    event WalletDeployed(address indexed owner, address wallet);

    address public immutable BEACON;

    constructor(address beacon) {
        BEACON = beacon;
    }

    /// The deposit wallet `owner` has or will have; it need not be deployed yet.
    function walletOf(address owner) public view returns (address) {
        return WalletAddresses.depositWallet(address(this), BEACON, owner);
    }

    /// Deploys `owner`'s wallet (once); returns its address either way.
    function deployWallet(address owner) external returns (address wallet) {
        wallet = walletOf(owner);
        if (wallet.code.length > 0) return wallet;
        bytes memory args = WalletAddresses.depositWalletArgs(address(this), owner);
        bytes memory code = WalletAddresses.depositWalletInitCode(BEACON, args);
        bytes32 salt = keccak256(args);
        address deployed;
        assembly {
            deployed := create2(0, add(code, 0x20), mload(code), salt)
        }
        require(deployed == wallet, "create2 failed");
        emit WalletDeployed(owner, wallet);
    }
}
