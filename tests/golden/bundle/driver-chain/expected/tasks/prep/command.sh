#!/bin/bash
cd "$CODE_SOURCE_PATH"
python prepare.py --out /Volumes/main/ml/data
