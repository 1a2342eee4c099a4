// SPDX-License-Identifier: MIT
// The Safe master copy for the sandbox's 1-of-1 Polymarket Safes: Safe 1.3.0's setup, nonce and
// execTransaction with the SafeTx EIP-712 hash (domain {chainId, verifyingContract}) and the r‖s‖v signature
// rules for one owner: v 27/28 signs the hash, v 31/32 signs it eth_sign-prefixed, v 1 is the owner sending
// the transaction itself. Several owners, gas refunds, modules and guards are left out; the ERC-1155 receiver
// hooks Safe gets from its fallback handler are built in.
pragma solidity ^0.8.20;

contract Safe {
    event SafeSetup(address indexed initiator, address[] owners, uint256 threshold, address initializer, address fallbackHandler);
    event ExecutionSuccess(bytes32 txHash, uint256 payment);
    event ExecutionFailure(bytes32 txHash, uint256 payment);

    bytes32 private constant DOMAIN_SEPARATOR_TYPEHASH = keccak256("EIP712Domain(uint256 chainId,address verifyingContract)");
    bytes32 private constant SAFE_TX_TYPEHASH = keccak256(
        "SafeTx(address to,uint256 value,bytes data,uint8 operation,uint256 safeTxGas,uint256 baseGas,uint256 gasPrice,address gasToken,address refundReceiver,uint256 nonce)"
    );
    string public constant VERSION = "1.3.0";

    /// Slot 0 belongs to the proxy (its master copy); never written here.
    address private singleton;
    address private owner;
    uint256 public nonce;

    constructor() {
        // The master copy itself can never be set up or used.
        owner = address(0x1);
    }

    /// Safe 1.3.0's setup; the sandbox takes exactly one owner and threshold 1, and no payment.
    function setup(
        address[] calldata owners,
        uint256 threshold,
        address to,
        bytes calldata,
        address fallbackHandler,
        address,
        uint256 payment,
        address
    ) external {
        require(owner == address(0), "GS200");
        require(owners.length == 1 && threshold == 1, "sandbox Safe: exactly one owner, threshold 1");
        require(owners[0] != address(0) && owners[0] != address(0x1), "GS203");
        require(to == address(0) && payment == 0, "sandbox Safe: no setup call, no payment");
        owner = owners[0];
        emit SafeSetup(msg.sender, owners, threshold, to, fallbackHandler);
    }

    function getOwners() external view returns (address[] memory owners) {
        owners = new address[](1);
        owners[0] = owner;
    }

    function getThreshold() external pure returns (uint256) {
        return 1;
    }

    function isOwner(address account) external view returns (bool) {
        return account == owner && account != address(0x1);
    }

    function domainSeparator() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_SEPARATOR_TYPEHASH, block.chainid, address(this)));
    }

    function getTransactionHash(
        address to,
        uint256 value,
        bytes calldata data,
        uint8 operation,
        uint256 safeTxGas,
        uint256 baseGas,
        uint256 gasPrice,
        address gasToken,
        address refundReceiver,
        uint256 _nonce
    ) public view returns (bytes32) {
        bytes32 safeTxHash = keccak256(
            abi.encode(
                SAFE_TX_TYPEHASH, to, value, keccak256(data), operation, safeTxGas, baseGas, gasPrice, gasToken, refundReceiver, _nonce
            )
        );
        return keccak256(abi.encodePacked(bytes1(0x19), bytes1(0x01), domainSeparator(), safeTxHash));
    }

    /// Executes one call (operation 0) or delegatecall (operation 1, e.g. to MultiSend) signed by the owner.
    /// With safeTxGas and gasPrice 0 a failing call reverts the transaction (GS013), as in Safe 1.3.0.
    function execTransaction(
        address to,
        uint256 value,
        bytes calldata data,
        uint8 operation,
        uint256 safeTxGas,
        uint256 baseGas,
        uint256 gasPrice,
        address gasToken,
        address payable refundReceiver,
        bytes calldata signatures
    ) external payable returns (bool success) {
        require(gasPrice == 0 && baseGas == 0, "sandbox Safe: no gas refunds");
        require(operation <= 1, "GS013");
        bytes32 txHash = getTransactionHash(
            to, value, data, operation, safeTxGas, baseGas, gasPrice, gasToken, refundReceiver, nonce
        );
        nonce++;
        _checkSignature(txHash, signatures);
        if (operation == 0) (success,) = to.call{value: value}(data);
        else (success,) = to.delegatecall(data);
        require(success || safeTxGas != 0, "GS013");
        if (success) emit ExecutionSuccess(txHash, 0);
        else emit ExecutionFailure(txHash, 0);
    }

    /// One owner's 65-byte r‖s‖v, read as Safe 1.3.0 reads signature 0.
    function _checkSignature(bytes32 dataHash, bytes calldata signatures) private view {
        require(signatures.length >= 65, "GS020");
        bytes32 r = bytes32(signatures[0:32]);
        bytes32 s = bytes32(signatures[32:64]);
        uint8 v = uint8(signatures[64]);
        address signer;
        if (v == 0) {
            revert("sandbox Safe: contract signatures are not supported");
        } else if (v == 1) {
            // Pre-approved: the owner named in r is the sender of this very transaction.
            signer = address(uint160(uint256(r)));
            require(msg.sender == signer, "GS025");
        } else if (v > 30) {
            // eth_sign: the owner signed the hash with the "\x19Ethereum Signed Message:\n32" prefix; v was raised by 4.
            signer = ecrecover(keccak256(abi.encodePacked("\x19Ethereum Signed Message:\n32", dataHash)), v - 4, r, s);
        } else {
            signer = ecrecover(dataHash, v, r, s);
        }
        require(signer != address(0) && signer == owner && signer != address(0x1), "GS026");
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
