// SPDX-License-Identifier: MIT
// A minimal contract wallet standing in for Polymarket's proxy wallets and Gnosis Safes: funds live here, its
// owner (an EOA) signs orders off chain and acts on chain through execute(), e.g. to grant approvals.
pragma solidity ^0.8.20;

contract ContractWallet {
    error NotWalletOwner();
    error CallFailed(bytes returnData);

    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function execute(address to, uint256 value, bytes calldata data) external returns (bytes memory) {
        if (msg.sender != owner) revert NotWalletOwner();
        (bool ok, bytes memory returnData) = to.call{value: value}(data);
        if (!ok) revert CallFailed(returnData);
        return returnData;
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

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7 || interfaceId == 0x4e2312e0;
    }
}
