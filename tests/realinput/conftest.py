"""Fixtures of the real-input suites: one X display with a window manager for the session, the
person's hands on it, and the shared helpers of tests/browser (the hub, the agent)."""

import pathlib
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "browser")]

from realinput import Display, Hands  # noqa: E402


@pytest.fixture(scope="session")
def display():
    screen = Display()
    yield screen
    screen.stop()


@pytest.fixture(scope="session")
def hands(display):
    return Hands(display)
