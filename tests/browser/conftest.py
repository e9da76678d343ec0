"""Fixtures for the Firefox tests (helpers in apc_firefox.py)."""

import pytest

from apc_firefox import make_firefox, standard_version_from_core


@pytest.fixture(scope="module")
def firefox():
    """A headless firefox-esr with the built extension installed, shared by a test module."""
    driver = make_firefox()
    yield driver
    driver.quit()


@pytest.fixture(scope="session")
def core_standard_version():
    return standard_version_from_core()
