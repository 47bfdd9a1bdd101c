// What the header says of a program's code, and how much of it XLA's parser reads: the evidence of the client and
// ahead-of-time cases that place the code right before an unreadable page (tier1.{compile,aot_compile}.reads_*).
export const PROGRAM_CITE = 'PJRT_Program: "Serialized code", `code` and `code_size`, "String is owned by the caller"';

/**
 * Settled from the sources and libtpu 0.0.42.1 (compile-only run of tier1.aot_compile.reads_*): the parser reads past
 * code_size only inside a token that runs to the end.
 */
const XLA_PARSER_READS =
  'XLA parses absl::string_view(code, code_size) in place (pjrt_c_api_wrapper_impl.cc ParsePjrtProgram → mlir_to_hlo.cc ' +
  'ParseMlirModuleString → mlir::parseSourceString: a MemoryBuffer without a terminator of its own); MLIR\'s lexer ' +
  '(mlir/lib/AsmParser/Lexer.cpp) returns eof where a token would start at the buffer\'s end and ends a comment there, so a ' +
  'whole valid text is read up to code_size and no further (libtpu passes .valid), while a token that runs to the end — an ' +
  'identifier or a number cut off — is scanned on with *curPtr one byte past it (libtpu dies on .truncated with SIGSEGV)';

export const READS_WITHIN_TERMINATED_CITE =
  `${PROGRAM_CITE} — the caller's string is code_size bytes and, as every framework's std::string has it, a NUL after them: ` +
  'a plugin may read that terminator (XLA\'s parser does, for a text cut off inside a token) but no byte past it';

export const READS_ONLY_CODE_SIZE_CITE =
  `${PROGRAM_CITE} — code_size says where the program ends; a plugin that reads past it works with every framework, whose ` +
  `std::string has a NUL there, but not with a C caller that passes exactly code_size bytes. ${XLA_PARSER_READS}`;
