// SPDX-License-Identifier: MIT
// Polymarket's SafeProxyFactory: anyone deploys an owner's 1-of-1 Safe with the owner's EIP-712 CreateProxy
// signature (domain "Polymarket Contract Proxy Factory", no version), at CREATE2 salt keccak256(abi.encode(owner))
// with init code = Safe proxy creation code ‖ abi.encode(masterCopy).
pragma solidity ^0.8.20;

import {Safe} from "./Safe.sol";
import {SafeProxy} from "./SafeProxy.sol";
import {WalletAddresses} from "./WalletAddresses.sol";

contract SafeProxyFactory {
    event ProxyCreation(address proxy, address owner);

    struct Sig {
        uint8 v;
        bytes32 r;
        bytes32 s;
    }

    string public constant NAME = "Polymarket Contract Proxy Factory";
    bytes32 public constant DOMAIN_TYPEHASH = keccak256("EIP712Domain(string name,uint256 chainId,address verifyingContract)");
    bytes32 public constant CREATE_PROXY_TYPEHASH =
        keccak256("CreateProxy(address paymentToken,uint256 payment,address paymentReceiver)");

    address public immutable masterCopy;
    address public immutable fallbackHandler;

    constructor(address masterCopy_, address fallbackHandler_) {
        masterCopy = masterCopy_;
        fallbackHandler = fallbackHandler_;
    }

    /// Computed per call so it follows the chain it runs on.
    function domainSeparator() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, keccak256(bytes(NAME)), block.chainid, address(this)));
    }

    function proxyCreationCode() external pure returns (bytes memory) {
        return type(SafeProxy).creationCode;
    }

    function getContractBytecode() external view returns (bytes memory) {
        return WalletAddresses.safeInitCode(masterCopy);
    }

    function getSalt(address user) external pure returns (bytes32) {
        return WalletAddresses.safeSalt(user);
    }

    function computeProxyAddress(address user) external view returns (address) {
        return WalletAddresses.safe(address(this), masterCopy, user);
    }

    /// Deploys the Safe of whoever signed CreateProxy(paymentToken, payment, paymentReceiver); the sandbox takes
    /// no payment, so those must be zero.
    function createProxy(address paymentToken, uint256 payment, address payable paymentReceiver, Sig calldata createSig)
        external
    {
        bytes32 structHash = keccak256(abi.encode(CREATE_PROXY_TYPEHASH, paymentToken, payment, paymentReceiver));
        bytes32 digest = keccak256(abi.encodePacked("\x19\x01", domainSeparator(), structHash));
        address owner = ecrecover(digest, createSig.v, createSig.r, createSig.s);
        require(owner != address(0), "ECDSA: invalid signature");
        address proxy = _deploy(owner);
        address[] memory owners = new address[](1);
        owners[0] = owner;
        Safe(payable(proxy)).setup(owners, 1, address(0), "", fallbackHandler, paymentToken, payment, paymentReceiver);
        emit ProxyCreation(proxy, owner);
    }

    function _deploy(address owner) private returns (address proxy) {
        bytes memory code = WalletAddresses.safeInitCode(masterCopy);
        bytes32 salt = WalletAddresses.safeSalt(owner);
        assembly {
            proxy := create2(0, add(code, 0x20), mload(code), salt)
        }
        require(proxy != address(0), "create2 call failed");
    }
}
