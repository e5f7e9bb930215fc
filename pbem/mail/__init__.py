"""Mail transport: a daemon that carries turn files over real SMTP and IMAP.

The file is the unit of exchange; mail is only a carrier. The daemon saves each
fetched turn-file attachment into the workspace's ``inbox/`` and hands it to
:mod:`pbem.play.exchange`; whatever appears in ``outbox/`` is mailed to the
opponent. Everything it must remember across restarts lives in ``.pbem/mail/``.
"""
