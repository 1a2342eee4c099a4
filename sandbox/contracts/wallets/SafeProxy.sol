// SPDX-License-Identifier: MIT
// The proxy every Safe is (Gnosis SafeProxy 1.3.0 behaviour): the master copy in storage slot 0, every call
// delegated to it, masterCopy() answered directly. Its creation code is part of the Safe address formula.
pragma solidity ^0.8.20;

contract SafeProxy {
    /// Slot 0, shared with the master copy's first variable.
    address internal singleton;

    constructor(address singleton_) {
        require(singleton_ != address(0), "Invalid singleton address provided");
        singleton = singleton_;
    }

    fallback() external payable {
        assembly {
            let target := and(sload(0), 0xffffffffffffffffffffffffffffffffffffffff)
            // masterCopy()
            if eq(shr(224, calldataload(0)), 0xa619486e) {
                mstore(0, target)
                return(0, 0x20)
            }
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), target, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) { revert(0, returndatasize()) }
            return(0, returndatasize())
        }
    }

    receive() external payable {}
}
