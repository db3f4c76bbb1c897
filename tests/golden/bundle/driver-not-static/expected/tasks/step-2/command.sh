#!/bin/bash
cd "$CODE_SOURCE_PATH"
python step.py
