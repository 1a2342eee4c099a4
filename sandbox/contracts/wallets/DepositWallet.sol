// SPDX-License-Identifier: MIT
// The deposit wallet's implementation (signature type 3, POLY_1271), run through each owner's beacon proxy.
// The owner is read from the proxy's immutable arguments, so a wallet needs no initialisation. Orders: the
// wallet is maker and signer, and isValidSignature accepts the owner's ERC-7739 TypedDataSign signature
// (docs/protocol.md#order-signing). On-chain actions: an owner-signed EIP-712 Batch{wallet,nonce,deadline,Call[]}
// under domain {name "DepositWallet", version "1", chainId, wallet} that anyone may submit, as Polymarket's
// relayer does. The Call fields (target, value, data) are the sandbox's reading: Polymarket's public sources do not name them.
pragma solidity ^0.8.20;

struct Call {
    address target;
    uint256 value;
    bytes data;
}

contract DepositWallet {
    error InvalidSignature();
    error Expired();

    event BatchExecuted(uint256 indexed nonce, uint256 calls);

    bytes4 private constant ERC1271_MAGIC = 0x1626ba7e;
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant CALL_TYPEHASH = keccak256("Call(address target,uint256 value,bytes data)");
    bytes32 private constant BATCH_TYPEHASH = keccak256(
        "Batch(address wallet,uint256 nonce,uint256 deadline,Call[] calls)Call(address target,uint256 value,bytes data)"
    );
    /// Above this s a signature is the malleable twin of another one (EIP-2).
    uint256 private constant MAX_S = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    /// Per wallet (the proxy's storage): the next Batch nonce.
    uint256 public nonce;

    /// The EOA whose key controls this wallet: the walletId in the last 32 bytes of the proxy's code.
    function owner() public view returns (address account) {
        assembly {
            let size := extcodesize(address())
            extcodecopy(address(), 0x00, sub(size, 0x20), 0x20)
            account := and(mload(0x00), 0xffffffffffffffffffffffffffffffffffffffff)
        }
    }

    function domainSeparator() public view returns (bytes32) {
        return keccak256(
            abi.encode(DOMAIN_TYPEHASH, keccak256("DepositWallet"), keccak256("1"), block.chainid, address(this))
        );
    }

    // ---------------------------------------------------------------- ERC-1271 with ERC-7739 wrapping

    /// `signature` = ownerSig(65) ‖ appDomainSeparator(32) ‖ contentsHash(32) ‖ contentsType ‖ uint16(len):
    /// valid when `hash` is the app's typed-data hash of those contents and the owner signed them as
    /// TypedDataSign{contents, name, version, chainId, verifyingContract = this wallet, salt} under the app's domain.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        return _isValidTypedDataSign(hash, signature) ? ERC1271_MAGIC : bytes4(0xffffffff);
    }

    function _isValidTypedDataSign(bytes32 hash, bytes calldata signature) private view returns (bool) {
        if (signature.length < 65 + 64 + 2) return false;
        uint256 typeLength = uint16(bytes2(signature[signature.length - 2:]));
        if (signature.length != 65 + 64 + typeLength + 2) return false;
        bytes32 appDomain = bytes32(signature[65:97]);
        bytes32 contents = bytes32(signature[97:129]);
        bytes calldata contentsType = signature[129:129 + typeLength];
        if (keccak256(abi.encodePacked("\x19\x01", appDomain, contents)) != hash) return false;

        // The contents' type name is what precedes the first "(" of its type string, e.g. "Order".
        uint256 nameLength;
        while (nameLength < typeLength && contentsType[nameLength] != "(") ++nameLength;
        if (nameLength == 0 || nameLength == typeLength) return false;
        bytes32 typeHash = keccak256(
            abi.encodePacked(
                "TypedDataSign(",
                contentsType[:nameLength],
                " contents,string name,string version,uint256 chainId,address verifyingContract,bytes32 salt)",
                contentsType
            )
        );
        bytes32 structHash = keccak256(
            abi.encode(
                typeHash, contents, keccak256("DepositWallet"), keccak256("1"), block.chainid, address(this), bytes32(0)
            )
        );
        return _recover(keccak256(abi.encodePacked("\x19\x01", appDomain, structHash)), signature[0:65]) == owner();
    }

    // ---------------------------------------------------------------- owner-signed batches

    /// Runs `calls` as this wallet if the owner signed Batch{this, nonce, deadline, calls}; anyone may submit.
    function execute(Call[] calldata calls, uint256 deadline, bytes calldata signature) external payable {
        if (deadline < block.timestamp) revert Expired();
        uint256 current = nonce;
        if (_recover(_batchDigest(calls, current, deadline), signature) != owner()) revert InvalidSignature();
        nonce = current + 1;
        for (uint256 i = 0; i < calls.length; ++i) {
            (bool ok, bytes memory result) = calls[i].target.call{value: calls[i].value}(calls[i].data);
            if (!ok) {
                assembly {
                    revert(add(result, 32), mload(result))
                }
            }
        }
        emit BatchExecuted(current, calls.length);
    }

    function _batchDigest(Call[] calldata calls, uint256 batchNonce, uint256 deadline) private view returns (bytes32) {
        bytes32[] memory callHashes = new bytes32[](calls.length);
        for (uint256 i = 0; i < calls.length; ++i) {
            callHashes[i] =
                keccak256(abi.encode(CALL_TYPEHASH, calls[i].target, calls[i].value, keccak256(calls[i].data)));
        }
        bytes32 structHash = keccak256(
            abi.encode(BATCH_TYPEHASH, address(this), batchNonce, deadline, keccak256(abi.encodePacked(callHashes)))
        );
        return keccak256(abi.encodePacked("\x19\x01", domainSeparator(), structHash));
    }

    /// ecrecover of a 65-byte r‖s‖v with the checks it lacks; 0 when the signature is malformed.
    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if ((v != 27 && v != 28) || uint256(s) > MAX_S) return address(0);
        return ecrecover(digest, v, r, s);
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
