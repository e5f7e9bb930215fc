"""Configuration parsing: every mistake is one clear line; passwords never in the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.mail.config import MailConfigError, load_config

GOOD = """\
address = "alice@example.org"
workspace = "games"

[imap]
host = "imap.example.org"
user = "alice"
password_env = "PBEM_TEST_IMAP_PW"

[smtp]
host = "smtp.example.org"
security = "starttls"
user = "alice"
password_file = "smtp.pw"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mail.toml"
    path.write_text(text)
    return path


def test_defaults_and_relative_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = load_config(write(tmp_path, GOOD))
    assert cfg.imap.port == 993 and cfg.imap.security == "tls"
    assert cfg.smtp.port == 587
    assert cfg.workspace == tmp_path.resolve() / "games"
    assert cfg.smtp.password_file == str(tmp_path.resolve() / "smtp.pw")
    assert cfg.imap_options.processed == "move" and cfg.imap_options.processed_folder == "pbem"
    assert cfg.max_attachment_bytes == 4 * 1024 * 1024
    monkeypatch.setenv("PBEM_TEST_IMAP_PW", "s3cret")
    assert cfg.imap.password() == "s3cret"
    (tmp_path / "smtp.pw").write_text("other\n")
    assert cfg.smtp.password() == "other"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('password_env = "PBEM_TEST_IMAP_PW"', 'password = "x"'), "imap.password is not allowed"),
        (('security = "starttls"', 'security = "ssl"'), "smtp.security must be one of"),
        (('host = "imap.example.org"', 'host = "imap.example.org"\nport = 0'), "imap.port 0 is not a TCP port"),
        (('host = "imap.example.org"', 'host = "imap.example.org"\nport = true'), "imap.port has the wrong type"),
        (('address = "alice@example.org"', 'address = "alice"'), "is not a mail address"),
        (("[smtp]", '[smtp]\ncolour = "blue"'), "unknown setting smtp.colour"),
        (("[imap]", '[imap]\nprocessed = "delete"'), 'imap.processed must be "move" or "flag"'),
        (('password_env = "PBEM_TEST_IMAP_PW"', ""), "imap.user is set but none of"),
    ],
)
def test_mistakes_are_named(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    with pytest.raises(MailConfigError) as err:
        load_config(write(tmp_path, GOOD.replace(*change, 1)))
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_missing_password_source_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBEM_TEST_IMAP_PW", raising=False)
    cfg = load_config(write(tmp_path, GOOD))
    with pytest.raises(MailConfigError, match="environment variable PBEM_TEST_IMAP_PW is not set"):
        cfg.imap.password()
    with pytest.raises(MailConfigError, match=r"cannot read smtp\.password_file"):
        cfg.smtp.password()


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(MailConfigError, match="cannot read mail configuration"):
        load_config(tmp_path / "absent.toml")
    with pytest.raises(MailConfigError, match="is not valid TOML"):
        load_config(write(tmp_path, "address = "))


def test_documented_example_parses(tmp_path: Path) -> None:
    """The complete example in docs/mail.md is a valid configuration."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "mail.md").read_text()
    example = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    cfg = load_config(write(tmp_path, example))
    assert cfg.address and cfg.imap.host and cfg.smtp.host


def test_missing_mail_servers_are_named_with_the_install_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mailservers

    monkeypatch.setattr(mailservers, "find_program", lambda name: None)
    with pytest.raises(mailservers.MailServerError) as err:
        mailservers.MailServers(tmp_path).start()
    assert "apt-get install dovecot-imapd dovecot-lmtpd postfix" in str(err.value)


def test_the_bot_store_comes_from_the_option_then_the_environment_then_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pbem.cli.mail_cmd import store_url
    from pbem.errors import PbemError

    monkeypatch.delenv("PBEM_BOT_STORE", raising=False)
    plain = load_config(write(tmp_path, GOOD))
    assert plain.bot.store == "" and plain.bot.store_key_file is None
    assert store_url(plain, "") == ""  # the workspace's files: the default
    cfg = load_config(
        write(tmp_path, GOOD + '\n[bot]\nstore = "postgresql://db.example.org/bot"\nstore_key_file = "bot.key"\n')
    )
    assert cfg.bot.store_key_file == tmp_path.resolve() / "bot.key"
    assert store_url(cfg, "") == "postgresql://db.example.org/bot"
    monkeypatch.setenv("PBEM_BOT_STORE", "postgresql://env/bot")
    assert store_url(cfg, "") == "postgresql://env/bot"
    assert store_url(cfg, "postgres://given/bot") == "postgres://given/bot"
    monkeypatch.setenv("PBEM_BOT_STORE", "/srv/bot.db")
    with pytest.raises(PbemError, match="PBEM_BOT_STORE must be a postgresql:// URL"):
        store_url(cfg, "")
