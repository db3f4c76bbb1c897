// The text dump of the shell AST declared in dump_ast.hpp.
//
// Recursion follows the tree, whose depth the parser bounds (ParseLimits).
#include "parse/dump_ast.hpp"

#include <cstdio>

namespace s2a {
namespace {

class Dumper {
 public:
  std::string take() { return std::move(out_); }

  void script(const ast::Script& node, int depth) {
    line(depth, "Script", node.span);
    list(node.body, depth + 1);
  }

  void list(const ast::List& node, int depth) {
    for (const ast::ListItem& item : node.items) {
      line(depth, item.background ? "Item &" : "Item", item.span);
      command(item.command, depth + 1);
    }
  }

  void command(const ast::Command& node, int depth) {
    std::string head = kind_name(node.kind);
    if (node.negated) head += " !";
    if (node.timed) head += " time";
    if (!node.name.empty()) head += " name=" + quote(node.name);
    if (!node.text.empty()) head += " text=" + quote(node.text);
    for (const std::string& op : node.ops) head += " " + op;
    line(depth, head, node.span);
    for (const ast::Assignment& assignment : node.assignments) {
      std::string text = "Assign " + quote(assignment.name);
      if (assignment.append) text += " +=";
      if (assignment.is_array) text += " array";
      line(depth + 1, text, assignment.span);
      if (assignment.is_array) {
        for (const ast::Word& element : assignment.elements) word(element, depth + 2);
      } else {
        word(assignment.value, depth + 2);
      }
    }
    for (const ast::Word& w : node.words) word(w, depth + 1);
    for (const ast::Redirect& redirect : node.redirects) {
      std::string text = "Redirect " + redirect.fd + redirect.op;
      if (redirect.op == "<<" || redirect.op == "<<-") {
        text += redirect.heredoc_quoted ? " quoted" : "";
        text += " body=" + span_text(redirect.heredoc_body);
      }
      line(depth + 1, text, redirect.span);
      word(redirect.target, depth + 2);
      for (const ast::WordPart& part : redirect.heredoc_parts) this->part(part, depth + 2);
    }
    for (const ast::Command& child : node.children) command(child, depth + 1);
    for (size_t i = 0; i < node.blocks.size(); ++i) {
      line(depth + 1, "Block " + std::to_string(i), node.blocks[i].span);
      list(node.blocks[i], depth + 2);
    }
    for (const ast::CaseItem& item : node.case_items) {
      line(depth + 1, "CaseItem " + quote(item.terminator), item.span);
      for (const ast::Word& pattern : item.patterns) word(pattern, depth + 2);
      list(item.body, depth + 2);
    }
  }

  void word(const ast::Word& node, int depth) {
    line(depth, "Word", node.span);
    for (const ast::WordPart& p : node.parts) part(p, depth + 1);
    for (const ast::Word& element : node.array_elements) word(element, depth + 1);
  }

  void part(const ast::WordPart& node, int depth) {
    std::string head = part_name(node.kind) + " " + quote(node.text);
    if (!node.op.empty()) head += " op=" + quote(node.op);
    line(depth, head, node.span);
    for (const ast::WordPart& p : node.parts) part(p, depth + 1);
    if (node.script) script(*node.script, depth + 1);
  }

 private:
  static std::string span_text(Span span) {
    return "[" + std::to_string(span.begin) + "," + std::to_string(span.end) + ")";
  }

  static std::string quote(const std::string& text) {
    std::string out = "\"";
    for (unsigned char c : text) {
      if (c == '"' || c == '\\') {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c == '\n') {
        out += "\\n";
      } else if (c == '\t') {
        out += "\\t";
      } else if (c < 0x20 || c >= 0x7f) {
        char buffer[8];
        std::snprintf(buffer, sizeof buffer, "\\x%02x", c);
        out += buffer;
      } else {
        out += static_cast<char>(c);
      }
    }
    return out + "\"";
  }

  static std::string kind_name(ast::CommandKind kind) {
    switch (kind) {
      case ast::CommandKind::simple:
        return "Simple";
      case ast::CommandKind::pipeline:
        return "Pipeline";
      case ast::CommandKind::and_or:
        return "AndOr";
      case ast::CommandKind::subshell:
        return "Subshell";
      case ast::CommandKind::brace_group:
        return "BraceGroup";
      case ast::CommandKind::if_clause:
        return "If";
      case ast::CommandKind::for_clause:
        return "For";
      case ast::CommandKind::arith_for:
        return "ArithFor";
      case ast::CommandKind::while_clause:
        return "While";
      case ast::CommandKind::until_clause:
        return "Until";
      case ast::CommandKind::case_clause:
        return "Case";
      case ast::CommandKind::select_clause:
        return "Select";
      case ast::CommandKind::function_def:
        return "Function";
      case ast::CommandKind::arith_command:
        return "Arith";
      case ast::CommandKind::cond_command:
        return "Cond";
    }
    return "?";
  }

  static std::string part_name(ast::PartKind kind) {
    switch (kind) {
      case ast::PartKind::literal:
        return "literal";
      case ast::PartKind::single_quoted:
        return "single_quoted";
      case ast::PartKind::ansi_c_quoted:
        return "ansi_c_quoted";
      case ast::PartKind::double_quoted:
        return "double_quoted";
      case ast::PartKind::param:
        return "param";
      case ast::PartKind::command_subst:
        return "command_subst";
      case ast::PartKind::backtick:
        return "backtick";
      case ast::PartKind::arith:
        return "arith";
      case ast::PartKind::process_subst:
        return "process_subst";
    }
    return "?";
  }

  void line(int depth, const std::string& text, Span span) {
    out_.append(static_cast<size_t>(depth) * 2, ' ');
    out_ += text;
    out_ += ' ';
    out_ += span_text(span);
    out_ += '\n';
  }

  std::string out_;
};

}  // namespace

std::string dump_ast(const ast::Script& script) {
  Dumper dumper;
  dumper.script(script, 0);
  return dumper.take();
}

std::string dump_ast(const ast::Command& command) {
  Dumper dumper;
  dumper.command(command, 0);
  return dumper.take();
}

}  // namespace s2a
