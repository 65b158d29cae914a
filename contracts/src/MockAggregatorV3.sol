// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title Chainlink-style price feed (AggregatorV3Interface subset) for a development chain.
/// @notice Development only: the owner sets the answer; `setRoundData` can back-date it to test staleness.
contract MockAggregatorV3 {
    uint8 public immutable decimals;
    string public description;
    uint256 public constant version = 4;
    address public immutable owner;

    uint80 private roundId;
    int256 private answer;
    uint256 private updatedAt;

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    error NotOwner();

    constructor(uint8 decimals_, string memory description_, int256 initialAnswer) {
        decimals = decimals_;
        description = description_;
        owner = msg.sender;
        _set(initialAnswer, block.timestamp);
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        return (roundId, answer, updatedAt, updatedAt, roundId);
    }

    function setAnswer(int256 answer_) external {
        if (msg.sender != owner) revert NotOwner();
        _set(answer_, block.timestamp);
    }

    function setRoundData(int256 answer_, uint256 updatedAt_) external {
        if (msg.sender != owner) revert NotOwner();
        _set(answer_, updatedAt_);
    }

    function _set(int256 answer_, uint256 updatedAt_) private {
        roundId += 1;
        answer = answer_;
        updatedAt = updatedAt_;
        emit AnswerUpdated(answer_, roundId, updatedAt_);
    }
}
