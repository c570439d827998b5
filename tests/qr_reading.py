"""QR codes read back by an independent reader (zxing-cpp), from their modules: the
tests' check that what the page and the terminal draw says what they meant."""

from __future__ import annotations

from typing import Any


def read_qr_modules(dark: Any) -> str:
    """What the QR code of modules ``dark`` (rows of booleans, True where dark, the
    quiet zone included) says: exactly one QR code must be found in it."""
    import numpy as np
    import zxingcpp

    modules = np.asarray(dark, dtype=bool)
    pixels = np.where(np.kron(modules, np.ones((8, 8), dtype=bool)), 0, 255).astype(np.uint8)
    found = zxingcpp.read_barcodes(pixels)
    assert len(found) == 1, found
    assert found[0].format == zxingcpp.BarcodeFormat.QRCode, found
    return str(found[0].text)
