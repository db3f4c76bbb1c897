#!/bin/bash
cd "$CODE_SOURCE_PATH"
python cleanup.py --partial-checkpoints
