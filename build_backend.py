"""The build backend of ``pip install``: setuptools' own, with numba added to what building a
wheel needs (``setup.py`` compiles the kernel into the wheel with it) and to nothing else, so an
editable install or an sdist does not install numba to build.
"""

from __future__ import annotations

import os

from setuptools.build_meta import *  # noqa: F403 (every hook as setuptools has it, but the one below)
from setuptools.build_meta import get_requires_for_build_wheel as _setuptools_wheel_requires

KERNEL_BUILD_REQUIRES = ["numba>=0.59"]


def get_requires_for_build_wheel(config_settings: dict | None = None) -> list[str]:
    """setuptools' requirements of a wheel, and numba unless ``LUKFU_COMPILE_KERNEL=0``."""
    requires = _setuptools_wheel_requires(config_settings)
    return requires if os.environ.get("LUKFU_COMPILE_KERNEL") == "0" else [*requires, *KERNEL_BUILD_REQUIRES]
