// SPDX-License-Identifier: MIT
// Safe's MultiSend (1.3.0 behaviour) for batches from a Safe: execTransaction delegatecalls multiSend(bytes)
// with packed (uint8 operation, address to, uint256 value, uint256 dataLength, bytes data) entries; each runs
// as the Safe and the first failure reverts them all. Only callable by delegatecall.
pragma solidity ^0.8.20;

contract MultiSend {
    address private immutable self;

    constructor() {
        self = address(this);
    }

    function multiSend(bytes memory transactions) public payable {
        require(address(this) != self, "MultiSend should only be called via delegatecall");
        uint256 i = 0;
        while (i < transactions.length) {
            uint8 operation = uint8(transactions[i]);
            address to;
            uint256 value;
            uint256 dataLength;
            assembly {
                let entry := add(add(transactions, 0x20), i)
                to := shr(96, mload(add(entry, 0x01)))
                value := mload(add(entry, 0x15))
                dataLength := mload(add(entry, 0x35))
            }
            bytes memory data = new bytes(dataLength);
            for (uint256 j = 0; j < dataLength; ++j) data[j] = transactions[i + 0x55 + j];
            bool ok;
            if (operation == 0) (ok,) = to.call{value: value}(data);
            else if (operation == 1) (ok,) = to.delegatecall(data);
            require(ok, "MultiSend: a transaction failed");
            i += 0x55 + dataLength;
        }
    }
}
