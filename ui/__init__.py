"""nospin tray application (PySide6, optional extra ``tray``)."""
