// SPDX-License-Identifier: MIT
// The sandbox's GSN v1 relay hub, as far as Polymarket's proxy wallets use it: a relay sends relayCall with the
// owner's `rlx:` signature, the hub checks it and the owner's relay nonce, asks the recipient (the proxy factory)
// whether it accepts the call, then calls it with the owner's address appended, as GSN recipients read it.
// No stakes, deposits or fees: the sandbox's one relay pays its own gas.
pragma solidity ^0.8.20;

/// What the hub asks a recipient before relaying to it (GSN v1's IRelayRecipient, the part the factory answers).
interface IRelayRecipient {
    function acceptRelayedCall(
        address relay,
        address from,
        bytes calldata encodedFunction,
        uint256 transactionFee,
        uint256 gasPrice,
        uint256 gasLimit,
        uint256 nonce,
        bytes calldata approvalData,
        uint256 maxPossibleCharge
    ) external view returns (uint256, bytes memory);
}

contract RelayHub {
    /// GSN v1's outcome codes for TransactionRelayed: 0 the call ran, 1 it reverted (the nonce is still used).
    enum RelayCallStatus {
        OK,
        RelayedCallFailed
    }

    event TransactionRelayed(address indexed relay, address indexed from, address indexed to, bytes4 selector, RelayCallStatus status, uint256 charge);

    mapping(address => uint256) private nonces;

    /// The nonce `from`'s next relayed call must carry.
    function getNonce(address from) external view returns (uint256) {
        return nonces[from];
    }

    /**
     * Relays `encodedFunction` to `to` as `from`. Refused (reverted, nothing used) when the signature is not
     * `from`'s over the `rlx:` hash naming this hub and the calling relay, the nonce is not `from`'s, the gas price
     * is above the transaction's, or the recipient does not accept the call. A call that reverts inside still uses
     * the nonce and is reported by TransactionRelayed's status, as GSN v1 does.
     */
    function relayCall(
        address from,
        address to,
        bytes memory encodedFunction,
        uint256 transactionFee,
        uint256 gasPrice,
        uint256 gasLimit,
        uint256 nonce,
        bytes memory signature,
        bytes memory approvalData
    ) external {
        require(gasPrice <= tx.gasprice, "Invalid gas price");
        require(nonce == nonces[from], "Wrong nonce");
        require(_recover(_relayHash(from, to, encodedFunction, transactionFee, gasPrice, gasLimit, nonce), signature) == from, "Invalid signature");
        (uint256 refusal, ) = IRelayRecipient(to).acceptRelayedCall(msg.sender, from, encodedFunction, transactionFee, gasPrice, gasLimit, nonce, approvalData, 0);
        require(refusal == 0, "Recipient refused the call");

        nonces[from] = nonce + 1;
        (bool ok, ) = to.call{gas: gasLimit}(abi.encodePacked(encodedFunction, from));
        emit TransactionRelayed(msg.sender, from, to, bytes4(encodedFunction), ok ? RelayCallStatus.OK : RelayCallStatus.RelayedCallFailed, 0);
    }

    /// The eth_sign digest of keccak256("rlx:" ‖ from ‖ to ‖ call ‖ fee ‖ gasPrice ‖ gasLimit ‖ nonce ‖ hub ‖ relay).
    function _relayHash(address from, address to, bytes memory encodedFunction, uint256 transactionFee, uint256 gasPrice, uint256 gasLimit, uint256 nonce)
        private
        view
        returns (bytes32)
    {
        bytes32 hash = keccak256(abi.encodePacked("rlx:", from, to, encodedFunction, transactionFee, gasPrice, gasLimit, nonce, address(this), msg.sender));
        return keccak256(abi.encodePacked("\x19Ethereum Signed Message:\n32", hash));
    }

    function _recover(bytes32 digest, bytes memory signature) private pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(signature, 32))
            s := mload(add(signature, 64))
            v := byte(0, mload(add(signature, 96)))
        }
        if (v < 27) v += 27;
        // The lower half of s only, so a signature has one valid form.
        if (uint256(s) > 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0) return address(0);
        return ecrecover(digest, v, r, s);
    }
}
