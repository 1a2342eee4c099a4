// SPDX-License-Identifier: MIT
// Polymarket's ProxyWalletFactory: an EOA calls proxy(calls) itself, or its relayer does through the relay hub
// (RelayHub.sol, GSN v1), which appends the EOA's address to the call as GSN recipients read it. The factory
// deploys the EOA's clone on first use (CREATE2, salt keccak256(encodePacked(owner)), FactoryLib creation code)
// and runs the calls as that wallet.
pragma solidity ^0.8.20;

import {ProxyWallet, ProxyCall} from "./ProxyWallet.sol";
import {WalletAddresses} from "./WalletAddresses.sol";

contract ProxyWalletFactory {
    event WalletCreated(address indexed owner, address wallet);

    address private immutable implementation;
    /// The only caller whose calls run for the address appended to them; anyone else acts for itself.
    address private immutable relayHub;

    /// The implementation is the factory's first creation, so its address (and every wallet's) does not depend
    /// on the hub's. A given implementation is used instead: a test that stands the factory at Polygon's address
    /// gives it Polygon's implementation address, so its wallets are where Polymarket's clients derive them.
    constructor(address hub, address givenImplementation) {
        implementation = givenImplementation == address(0) ? address(new ProxyWallet()) : givenImplementation;
        relayHub = hub;
    }

    function getHubAddr() external view returns (address) {
        return relayHub;
    }

    /// As Polymarket's GSN module answers: 0 (accept) for proxy(calls), anything else refused.
    function acceptRelayedCall(address, address, bytes calldata encodedFunction, uint256, uint256, uint256, uint256, bytes calldata, uint256)
        external
        pure
        returns (uint256, bytes memory)
    {
        return (encodedFunction.length >= 4 && bytes4(encodedFunction[:4]) == this.proxy.selector ? 0 : 1, "");
    }

    function getImplementation() external view returns (address) {
        return implementation;
    }

    /// The proxy wallet `owner` has or will have; it need not be deployed yet.
    function walletOf(address owner) public view returns (address) {
        return WalletAddresses.proxyWallet(address(this), implementation, owner);
    }

    /// Runs `calls` as the sender's proxy wallet, creating the wallet first if it has no code yet.
    function proxy(ProxyCall[] calldata calls) external payable returns (bytes[] memory) {
        address sender = _msgSender();
        address wallet = walletOf(sender);
        if (wallet.code.length == 0) _makeWallet(sender);
        return ProxyWallet(payable(wallet)).proxy{value: msg.value}(calls);
    }

    /// The EOA a call is for: the hub's calls carry it in their last 20 bytes (GSN v1), everyone else is itself.
    function _msgSender() private view returns (address) {
        if (msg.sender != relayHub || msg.data.length < 24) return msg.sender;
        return address(bytes20(msg.data[msg.data.length - 20:]));
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
