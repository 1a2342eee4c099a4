// SPDX-License-Identifier: MIT
// Which contract wallet a signer controls, for POLY_PROXY and POLY_GNOSIS_SAFE orders: the maker must be the
// wallet the configured factory derives from the signer. Admins set the two factories.
pragma solidity ^0.8.20;

import {Roles} from "./Roles.sol";
import {OrderHashing} from "./OrderHashing.sol";
import {SignatureType} from "./Structs.sol";

interface IWalletFactory {
    function walletOf(address owner) external view returns (address);
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

    /// The proxy wallet `signer` owns, or 0 when no proxy factory is set.
    function getPolyProxyWalletAddress(address signer) public view returns (address) {
        return proxyFactory == address(0) ? address(0) : IWalletFactory(proxyFactory).walletOf(signer);
    }

    /// The Safe `signer` owns, or 0 when no Safe factory is set.
    function getSafeAddress(address signer) public view returns (address) {
        return safeFactory == address(0) ? address(0) : IWalletFactory(safeFactory).walletOf(signer);
    }

    function _walletOf(SignatureType signatureType, address signer) internal view override returns (address) {
        if (signatureType == SignatureType.POLY_PROXY) return getPolyProxyWalletAddress(signer);
        if (signatureType == SignatureType.POLY_GNOSIS_SAFE) return getSafeAddress(signer);
        return address(0);
    }
}
