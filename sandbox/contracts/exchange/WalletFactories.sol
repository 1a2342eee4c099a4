// SPDX-License-Identifier: MIT
// Which contract wallet a signer controls, for POLY_PROXY and POLY_GNOSIS_SAFE orders: the maker must be the
// wallet the configured factory would deploy for the signer, computed here with Polymarket's CREATE2 formulas
// from the factory and its implementation (proxy) or master copy (Safe), as ctf-exchange's PolyFactoryHelper
// does. Admins set the two factories.
pragma solidity ^0.8.20;

import {Roles} from "./Roles.sol";
import {OrderHashing} from "./OrderHashing.sol";
import {SignatureType} from "./Structs.sol";
import {WalletAddresses} from "../wallets/WalletAddresses.sol";

interface IProxyWalletFactory {
    function getImplementation() external view returns (address);
}

interface ISafeProxyFactory {
    function masterCopy() external view returns (address);
}

abstract contract WalletFactories is Roles, OrderHashing {
    event ProxyFactoryUpdated(address indexed oldProxyFactory, address indexed newProxyFactory);
    event SafeFactoryUpdated(address indexed oldSafeFactory, address indexed newSafeFactory);

    address private proxyFactory;
    address private safeFactory;

    function getProxyFactory() external view returns (address) {
        return proxyFactory;
    }

    function getSafeFactory() external view returns (address) {
        return safeFactory;
    }

    function setProxyFactory(address factory) external onlyAdmin {
        emit ProxyFactoryUpdated(proxyFactory, factory);
        proxyFactory = factory;
    }

    function setSafeFactory(address factory) external onlyAdmin {
        emit SafeFactoryUpdated(safeFactory, factory);
        safeFactory = factory;
    }

    /// The proxy wallet `signer` owns (deployed or not), or 0 when no proxy factory is set.
    function getPolyProxyWalletAddress(address signer) public view returns (address) {
        // An address without code would make the call below revert undecodably; it is simply no factory.
        if (proxyFactory.code.length == 0) return address(0);
        return WalletAddresses.proxyWallet(proxyFactory, IProxyWalletFactory(proxyFactory).getImplementation(), signer);
    }

    /// The Safe `signer` owns (deployed or not), or 0 when no Safe factory is set.
    function getSafeAddress(address signer) public view returns (address) {
        if (safeFactory.code.length == 0) return address(0);
        return WalletAddresses.safe(safeFactory, ISafeProxyFactory(safeFactory).masterCopy(), signer);
    }

    function _walletOf(SignatureType signatureType, address signer) internal view override returns (address) {
        if (signatureType == SignatureType.POLY_PROXY) return getPolyProxyWalletAddress(signer);
        if (signatureType == SignatureType.POLY_GNOSIS_SAFE) return getSafeAddress(signer);
        return address(0);
    }
}
