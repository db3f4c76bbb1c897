#!/bin/bash
cd "$CODE_SOURCE_PATH"
python bench.py --steps 200
