"""The player's profile, kept in this browser: settings and finished games (`model`), game
records that replay and verify themselves (`records`), statistics (`stats`), the replay viewer
(`replay`, `view`), the screens that show them (`screens`), and linking a device (`device_link`).
"""
