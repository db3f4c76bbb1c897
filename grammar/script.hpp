// The shell grammar of slurm2air: how the bash parser is built, and why.
//
// Two layers:
//
//  1. Lexical level, in X3 (grammar/lexical*.{hpp,cpp}): blanks with line
//     continuations, comments, NAMEs, special parameters, the plain-text runs
//     of each quoting context, '...', $'...' with escape decoding, control and
//     redirection operators (longest match through x3::symbols), fd prefixes,
//     assignment heads and reserved words. The rules are defined once in
//     lexical_def.hpp, compiled once in lexical.cpp for the types spelled in
//     config.hpp, and exposed as Boost-free matcher functions (lexical.hpp).
//     They use no expectation points, so X3 never throws here.
//
//  2. Command structure, by hand (src/parse/parser.{hpp,cpp}): a recursive-
//     descent parser over those tokens for words and their nested parts
//     ("...", $(...), ${...}, $((...)), `...`, <(...)), lists, pipelines,
//     and-or chains, compound commands, functions, redirects and heredocs.
//
// Why not all X3: bash's grammar is context dependent in ways that fight a
// PEG. Reserved words count only in command position; a heredoc body starts
// at the next newline *token*, which may be lines after the `<<EOF` (after a
// multi-line $(...) or a `|` continuation); `$((` is arithmetic or a nested
// subshell depending on where the parentheses close; `case` patterns end at
// an unbalanced `)`. Recovery (skip to the next line, keep parsing) and a
// depth limit that reports instead of overflowing the stack are also simpler
// with an explicit parser. Sequences are loops, so only nesting recurses,
// and every nesting step passes one depth guard (ParseLimits::max_depth).
//
// The only entry point for the rest of slurm2air is s2a::parse_script()
// (src/parse/parse_script.hpp); nothing outside grammar/ includes X3.
#pragma once

#include "grammar/lexical.hpp"
