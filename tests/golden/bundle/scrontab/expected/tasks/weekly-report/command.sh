#!/bin/bash
cd "$CODE_SOURCE_PATH"
python report.py
