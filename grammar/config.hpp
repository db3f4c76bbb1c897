// The one place where the X3 iterator and context types are spelled.
//
// Every X3 rule of the shell grammar is instantiated for exactly these types
// (BOOST_SPIRIT_INSTANTIATE links only for the exact pair). The shell tokens
// are parsed without a skipper: blanks are significant between words, so the
// callers skip them explicitly with the `blanks` rule.
#pragma once

#include <boost/spirit/home/x3.hpp>

namespace s2a::grammar {

namespace x3 = boost::spirit::x3;

using iterator_type = const char*;
using context_type = x3::unused_type;

}  // namespace s2a::grammar
