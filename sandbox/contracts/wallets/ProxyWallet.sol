// SPDX-License-Identifier: MIT
// The implementation behind every Polymarket proxy wallet (signature type 1): funds live in the clone, whose
// only owner is the factory that made it; the factory runs batches of calls for the wallet's EOA.
pragma solidity ^0.8.20;

/// 0 INVALID is refused (clients must send 1 for a plain call), as in Polymarket's ProxyWalletLib.
enum CallType {
    INVALID,
    CALL,
    DELEGATECALL
}

struct ProxyCall {
    CallType typeCode;
    address to;
    uint256 value;
    bytes data;
}

contract ProxyWallet {
    error InvalidCallType();

    /// The factory, set once by initialize() right after the clone is created.
    address private owner;

    function initialize() external {
        require(owner == address(0), "already initialized");
        owner = msg.sender;
    }

    /// Runs the calls as this wallet; the first failing call reverts the whole batch with its revert data.
    function proxy(ProxyCall[] calldata calls) external payable returns (bytes[] memory returnValues) {
        require(msg.sender == owner, "must be called be owner");
        returnValues = new bytes[](calls.length);
        for (uint256 i = 0; i < calls.length; ++i) {
            ProxyCall calldata c = calls[i];
            bool ok;
            bytes memory result;
            if (c.typeCode == CallType.CALL) (ok, result) = c.to.call{value: c.value}(c.data);
            else if (c.typeCode == CallType.DELEGATECALL) (ok, result) = c.to.delegatecall(c.data);
            else revert InvalidCallType();
            if (!ok) {
                assembly {
                    revert(add(result, 32), mload(result))
                }
            }
            returnValues[i] = result;
        }
    }

    receive() external payable {}

    function onERC1155Received(address, address, uint256, uint256, bytes calldata) external pure returns (bytes4) {
        return this.onERC1155Received.selector;
    }

    function onERC1155BatchReceived(address, address, uint256[] calldata, uint256[] calldata, bytes calldata)
        external
        pure
        returns (bytes4)
    {
        return this.onERC1155BatchReceived.selector;
    }
}
