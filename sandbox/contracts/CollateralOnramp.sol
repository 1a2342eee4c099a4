// SPDX-License-Identifier: MIT
// The sandbox's pUSD onramp and offramp in one contract, with Polymarket's signatures (docs/protocol.md#collateral): wrap(asset, to, amount) takes USDC.e from the caller (who approved this contract for it) and mints as
// much pUSD to `to`; unwrap(asset, to, amount) takes pUSD from the caller (approved likewise), burns it and
// pays as much USDC.e to `to`. 1:1, both 6 decimals. The USDC.e it pays out is what it holds: what was wrapped
// plus the reserve the deployment mints to it (pUSD minted straight to test wallets has no USDC.e behind it).
pragma solidity ^0.8.20;

interface IMintableToken {
    function mint(address to, uint256 amount) external;
    function burn(uint256 amount) external;
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

contract CollateralOnramp {
    error OnlyUnpaused();
    error OnlyAdmin();
    error UnsupportedAsset();
    error TransferFailed();

    event Wrapped(address indexed caller, address indexed asset, address indexed to, uint256 amount);
    event Unwrapped(address indexed caller, address indexed asset, address indexed to, uint256 amount);

    IMintableToken public immutable pusd;
    address public immutable usdce;
    address public immutable admin;
    bool public paused;

    constructor(address pusd_, address usdce_) {
        pusd = IMintableToken(pusd_);
        usdce = usdce_;
        admin = msg.sender;
    }

    /// As Polymarket's onramp can be paused, so a client's paused path can be tried.
    function setPaused(bool paused_) external {
        if (msg.sender != admin) revert OnlyAdmin();
        paused = paused_;
    }

    function wrap(address asset, address to, uint256 amount) external {
        _check(asset);
        if (!IMintableToken(usdce).transferFrom(msg.sender, address(this), amount)) revert TransferFailed();
        pusd.mint(to, amount);
        emit Wrapped(msg.sender, asset, to, amount);
    }

    function unwrap(address asset, address to, uint256 amount) external {
        _check(asset);
        if (!pusd.transferFrom(msg.sender, address(this), amount)) revert TransferFailed();
        pusd.burn(amount);
        if (!IMintableToken(usdce).transfer(to, amount)) revert TransferFailed();
        emit Unwrapped(msg.sender, asset, to, amount);
    }

    function _check(address asset) private view {
        if (paused) revert OnlyUnpaused();
        if (asset != usdce) revert UnsupportedAsset();
    }
}
