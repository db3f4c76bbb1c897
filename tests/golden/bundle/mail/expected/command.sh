#!/bin/bash
cd "$CODE_SOURCE_PATH"
python evaluate.py --checkpoint latest
