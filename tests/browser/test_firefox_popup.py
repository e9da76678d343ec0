"""The popup, in Firefox, shows the APC standard version that Rust core gave the Rust background,
which answered the popup's `ping` over runtime messaging."""

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from apc_firefox import extension_url


def open_popup(driver):
    driver.get(extension_url("popup/popup.html"))
    WebDriverWait(driver, 20).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-state") != "loading"
    )


def test_popup_shows_the_standard_version_from_core(firefox, core_standard_version):
    open_popup(firefox)
    state = firefox.find_element(By.TAG_NAME, "body").get_attribute("data-state")
    detail = firefox.find_element(By.ID, "status-error-detail").text
    assert state == "ready", f"popup is in state {state}: {detail}"
    assert firefox.find_element(By.ID, "standard-version").text.strip() == core_standard_version
    assert firefox.find_element(By.ID, "standard").is_displayed()


def test_background_answers_through_rust(firefox, core_standard_version):
    open_popup(firefox)
    answers = firefox.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        const send = (m) => browser.runtime.sendMessage(m);
        Promise.all([send({ type: 'ping' }), send({ type: 'make_coffee' }), send('ping')])
          .then(([ping, unknown, notAMessage]) => done({ ping, unknown, notAMessage }))
          .catch((e) => done({ thrown: String(e) }));
        """
    )
    assert "thrown" not in answers, answers
    assert answers["ping"]["ok"] is True
    assert answers["ping"]["standard"] == core_standard_version
    assert answers["unknown"] == {
        "ok": False,
        "error": "unknown_type",
        "message": 'unknown message type "make_coffee"',
    }
    assert answers["notAMessage"]["error"] == "not_a_message"
