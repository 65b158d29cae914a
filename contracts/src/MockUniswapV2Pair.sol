// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title Uniswap-V2-style pair exposing only what a price reader needs.
/// @notice Development only: reserves are set by the owner instead of by swaps.
contract MockUniswapV2Pair {
    address public immutable token0;
    address public immutable token1;
    address public immutable owner;

    uint112 private reserve0;
    uint112 private reserve1;
    uint32 private blockTimestampLast;

    event Sync(uint112 reserve0, uint112 reserve1);

    error NotOwner();

    constructor(address tokenA, address tokenB) {
        // Same ordering rule as Uniswap V2: token0 is the lower address.
        (token0, token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        owner = msg.sender;
    }

    function getReserves() external view returns (uint112, uint112, uint32) {
        return (reserve0, reserve1, blockTimestampLast);
    }

    function setReserves(uint112 reserve0_, uint112 reserve1_) external {
        if (msg.sender != owner) revert NotOwner();
        reserve0 = reserve0_;
        reserve1 = reserve1_;
        blockTimestampLast = uint32(block.timestamp);
        emit Sync(reserve0_, reserve1_);
    }
}
