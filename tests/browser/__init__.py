"""The page in headless Chromium (a package, so its conftest and modules do not shadow those of tests/)."""
