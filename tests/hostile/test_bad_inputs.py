"""The bad-input corpus: every refusal of every input form, through ``generate``.

``tests/bad_inputs/`` holds one file per case, in the four input forms (JSON, TOML, OCaml
``.ml``, C ``.h``); ``CASES`` below says what each must give. Every case runs as
``sarek-layout generate CASE -o EMPTY_DIR`` with all four targets and a depfile, from inside
the corpus folder, and must exit 2 with exactly the expected lines on stderr (one for most
cases; several where a file has several independent refusals, which are all reported), each
``FILE:LINE:COL: error: …`` (``FILE: error: …`` where no line applies) holding its fragments,
nothing on stdout, no traceback, and nothing written: the output folder stays empty and the
corpus unchanged. The same file through ``layout`` (``import-c`` for a header) must give the
same lines, except for the refusals only ``generate`` can make (``GENERATE_ONLY``). Files the corpus cannot hold
(folders, FIFOs, symlink loops, hostile file names) are made on the fly by the tests below it.

To add a case: put the file in ``tests/bad_inputs/`` and a row here; a file without a row (or
a row without a file) fails ``test_every_corpus_file_has_a_case``.
"""

from __future__ import annotations

import os
import pathlib
import stat

import pytest

from helpers.hostile import check_refused_bounded
from sarek_layout.cli.main import main

CORPUS = pathlib.Path(__file__).resolve().parents[1] / "bad_inputs"
TARGETS = ["-t", "c", "-t", "cuda", "-t", "opencl", "-t", "python"]

# (schema files given together, "LINE:COL" in the last of them or "" for the file alone,
#  fragments the message must contain; "{file}" stands for the last file's name), or, for a
# file refused several times: (files, [("LINE:COL", fragments), ...]), one pair a line.
CASES = [
    # --- JSON and TOML: structure, references, layout rules ---------------------------------
    ('unknown.toml', '4:35', ["unknown type 'pointt'", "did you mean 'point'"]),
    ('dupfield.json', '2:47', ["duplicate field 'x'", 'first at', 'dupfield.json:2:31']),
    ('duptype.toml', '6:11', ["duplicate type 'p'"]),
    ('dupctor.json', '2:34', ["duplicate constructor 'A'"]),
    ('empty_record.json', '1:23', ['no fields']),
    ('no_ctors.toml', '2:11', ['no constructors']),
    ('recursive.json', '2:14', ['recursive type', 'Recursive.p -> Recursive.q -> Recursive.p']),
    ('self.json', '1:24', ["recursive type 'Self.lst'"]),
    ('identifier.json', '1:40', ["'2x' is not a valid identifier"]),
    ('keyword.toml', '5:4', ["'class' is a keyword of C++ (targets c and cuda)"]),
    ('opencl_keyword.json', '1:40', ["field name 'kernel' is a keyword", "(target opencl)"]),
    ('reserved.json', '1:23', ["type name '_Point' starts with '_'", 'C reserves such names at file scope']),
    ('padding.json', '1:40', ["'_sarek_'"]),
    ('nonascii.json', '1:40', ['non-ASCII']),
    ('scalar_name.json', '1:23', ['built-in scalar name']),
    ('param.json', '1:45', ['parameterised type']),
    ('inline.json', '1:53', ['inline record']),
    ('tuple.json', '1:53', ['bad type expression', 'use a record type']),
    ('list.json', '1:45', ["unsupported type constructor 'list'"]),
    ('nested_variant.json', '3:12', ["layout of 'p': field 's' is a variant nested below top level"]),
    ('nested_variant_arg.toml', '3:33', ["field 'A._1' is a variant nested below top level"]),
    ('array.toml', '3:18', ["layout of 'p': field 'xs' has type TArray", 'no byte layout']),
    ('vector.json', '1:53', ["field 'A._0' has type TVec"]),
    ('unknown_module.json', '1:45', ["unknown module 'Geo'", 'same command line']),
    ('syntax.json', '3:1', ['invalid JSON']),
    ('syntax.toml', '3:16', ['invalid TOML']),
    ('top_array.json', '1:1', ['the schema must be a table/object, not an array']),
    ('unknown_key.toml', '1:9', ["unknown key 'modul'"]),
    ('no_types.json', '1:1', ["no 'types' array"]),
    ('types_not_array.json', '1:11', ["'types' must be an array"]),
    ('field_pair.json', '1:39', ['[name, type] pair']),
    ('field_name_type.json', '1:40', ['a field name must be a string, not a number']),
    ('type_not_string.json', '1:45', ['type must be written as a string']),
    ('both_kinds.json', '1:12', ["exactly one of 'record', 'variant' or 'enum'"]),
    ('extra_key.json', '1:63', ["unknown key 'doc'"]),
    ('bad_module.json', '1:12', ["module name 'my-mod'"]),
    ('empty.json', '', ['empty file']),
    ('garbage.json', '', ['not UTF-8']),
    ('notes.yaml', '', ["unknown schema format '.yaml'"]),
    # --- names: refused by the targets they break, naming them (Python keywords are escaped) -
    ('type_underscore.json', '1:37', ["type name '_0' starts with '_'", "choose another name"]),
    ('module_underscore.toml', '1:10', ["module name '_geo' starts with '_'", 'set "module"']),
    ('double_underscore.json', '1:40', ["field name 'a__b' contains '__'", "(targets c and cuda)"]),
    ('leading_dunder.toml', '3:12', ["field name '__x' is reserved for the implementation",
                                     "Python mangles", "(target python)"]),
    ('stdint_macro.json', '1:40', ["'INT32_MAX' is a macro of the C library's headers",
                                   "(targets c and cuda)"]),
    ('own_prefix.json', '1:40', ["'SAREK_LAYOUT_ZERO' uses the prefix 'sarek_layout_'"]),
    ('cuda_vector.toml', '4:10', ["C name 'longlong2' of type 'longlong2' is a built-in vector type",
                                  "(target cuda)"]),
    # Names a target's compiler declares at file scope (targets/declared.json), and the program's main.
    ('type_named_main.toml', '4:10', ["C name 'main' of type 'main' is the program's entry point",
                                      "(targets c and cuda)"]),
    ('type_named_std.json', '1:37', ["C name 'std' of type 'std' is already declared at file "
                                     "scope where the header is compiled (g++"]),
    ('type_named_atomicadd.toml', '4:11', ["C name 'atomicAdd'", "already declared at file scope",
                                           "(nvcc)"]),
    ('keyword_default.json', '1:40', ["field name 'default' is a keyword", "(targets c, cuda and opencl)"]),
    ('keyword_union.toml', '4:10', ["C name 'union' of type 'union' is a keyword"]),
    ('keyword_template.json', '1:40', ["field name 'template' is a keyword"]),
    ('opencl_global.json', '1:40', ["field name '__global' is reserved for the implementation"]),
    ('opencl_half.toml', '3:12', ["field name 'half' is a keyword", "(target opencl)"]),
    ('macro_field.json', '1:42', ["field name 'EOF' is a macro of the C library's headers",
                                  "(targets c and cuda)"]),
    ('c_bool.json', '1:40', ["field name '_Bool' is reserved for the implementation"]),
    ('nonascii.toml', '3:12', ["field name 'caf\xe9' contains non-ASCII characters"]),
    # --- mangled C names: each part is fine, the joined name is not ---------------------
    ('composed_stdint.json', '1:41', ["C name 'size_t' of type 'size.t' is already declared",
                                      "is a built-in type of OpenCL C (target opencl)",
                                      "rename the type or its module"]),
    ('composed_dunder.toml', '4:18', ["C name 'M_t__A' of constructor M.t_.A contains '__'"]),
    ('ctor_underscore.json', '1:62', ["C name 'M_v__a' of constructor M.v._a contains '__'"]),
    ('device_function_type.json', '1:37', ["C name 'max' of type 'max'",
                                           "CUDA or OpenCL C declares implicitly",
                                           "(targets cuda and opencl)"]),
    ('enum_collision.json', '2:38', ["C name 'M_v_A' of constructor M.v.A collides with type 'M.v_A'"]),
    ('make_collision.json', '2:38', ["C name 'make_v_A' of constructor v.A collides with type 'make_v_A'"]),
    ('member_shadows_type.json', '3:49', ["type 'seg' has a member 'point' and uses the type 'point'",
                                          "C++ refuses"]),
    ('variant_tag_type.toml', '7:18', ["type 'v' has a member 'tag' and uses the type 'tag'"]),
    ('mangle_a.json mangle_ab.json', '1:40', ["C name 'A_b_c' of type 'A_b.c' collides with type 'A.b_c'"]),
    # --- the python target's own names and module name ----------------------------------
    ('python_param.json', '1:37', ["would define 't'", "a parameter of the generated decoders"]),
    ('python_builtin.json', '1:37', ["would define 'list'", "a Python builtin"]),
    ('python_fixed.json', '1:37', ["would define 'EncodeError'", "the generated module itself"]),
    ('my-schema.json', '', ["would give 'my-schema_layout', which is not a Python identifier",
                            "rename the file"]),
    # A Python keyword is escaped (``from`` -> ``from_``), unless that makes two names one.
    ('python_keyword_clash.json', '1:77', ["type 'Py.hop' has fields 'from' and 'from_'",
                                           "would both emit as 'from_'", "'from' is a Python keyword"]),
    ('python_keyword_type.json', '1:85', ["would define 'None_' for type 'None_'",
                                          "already taken by type 'None' (its C name 'None' is a Python keyword"]),
    # --- limits instead of crashes ------------------------------------------------------
    ('deep_records.toml', '302:10', ["type 'Deep_records.r100' nests types 101 levels deep",
                                     "the limit is 100"]),
    ('deep_arrays.json', '1:1', ['invalid JSON: nested too deeply']),
    ('deep_arrays.toml', '1:1', ['invalid TOML: nested too deeply']),
    ('huge_int.json', '1:45', ['a type must be written as a string, not a number']),
    ('huge_int.toml', '3:17', ['invalid TOML: an integer of more than 4300 digits']),
    ('duplicate_key.json', '2:29', ["duplicate key 'fields' in an object",
                                    "JSON readers disagree on which value counts"]),
    ('duplicate_module.json', '1:30', ["duplicate key 'module' in an object"]),
    ('long_dotted_key.toml', '2:1', ['a key or table name of 17 dotted parts',
                                     'the limit is 16']),
    ('mutual_recursion.toml', '2:10', ["recursive type 'Mutual_recursion.a'",
                                       "Mutual_recursion.b -> Mutual_recursion.c -> Mutual_recursion.a"]),
    ('huge_name.json', '1:40', ["(20000 characters) is longer than the limit of 63 characters"]),
    # --- wrong JSON/TOML types anywhere -------------------------------------------------
    ('module_int.json', '1:12', ["'module' must be a string, not a number"]),
    ('record_name_int.toml', '2:10', ['the record name must be a string, not a number']),
    ('ctor_name_int.json', '1:47', ['a constructor name must be a string, not a number']),
    ('ctor_args_string.json', '1:52', ["the arguments of 'A' must be an array, not a string"]),
    ('fields_table.toml', '3:10', ["'fields' must be an array, not a table/object"]),
    ('type_null.json', '1:45', ['a type must be written as a string, not null']),
    ('types_entry_string.json', '1:12', ['a type declaration must be a table/object, not a string']),
    ('type_float.toml', '3:17', ['a type must be written as a string, not a number']),
    ('field_name_bool.toml', '3:12', ['a field name must be a string, not a boolean']),
    ('types_string.toml', '1:9', ["'types' must be an array, not a string"]),
    # --- garbage, empty and truncated files ---------------------------------------------
    ('garbage.toml', '', ['not UTF-8 text (bad byte at offset 0)']),
    ('empty.toml', '1:1', ["the schema has no 'types' array"]),
    ('whitespace.json', '', ['empty file']),
    ('nul.json', '1:14', ['invalid JSON']),
    ('truncated.toml', '4:1', ['invalid TOML: Unclosed array']),
    # --- OCaml sources (.ml) -------------------------------------------------------------
    ('ml_parameterised_type_t_is_not.ml', '1:6', ["parameterised type 't' is not supported"]),
    ('ml_parameterised_type_t.ml', '1:6', ["parameterised type 't'"]),
    ('ml_parameterised_type_t_2.ml', '1:6', ["parameterised type 't'"]),
    ('ml_constructor_a_has_an_inline.ml', '2:10', ["constructor 'A' has an inline record"]),
    ('ml_constructor_a_takes_a_single.ml', '1:15', ["constructor 'A' takes a single tuple argument written 'of (a * b)'"]),
    ('ml_polymorphic_variant_type_t.ml', '1:10', ["polymorphic variant type 't'"]),
    ('ml_polymorphic_variant_type_in_field.ml', '1:16', ["polymorphic variant type in field 'c'"]),
    # GADT syntax is read when it is a plain variant written another way; not a real GADT.
    ('ml_gadt_result_is_another_type.ml', '4:18', ["GADT constructor 'A' returns 'w', not 't'",
                                                   'a real GADT']),
    ('ml_gadt_existential.ml', '2:9', ["type variable 'a in GADT constructor 'A'", 'existential']),
    ('ml_gadt_record_argument.ml', '2:9', ["constructor 'A' has an inline record argument"]),
    ('ml_gadt_curried.ml', '1:29', ["GADT constructor 'A' has a function-typed argument",
                                    "(A : a * b -> t)"]),
    ('ml_gadt_parameterised.ml', '1:6', ["parameterised type 't' is not supported"]),
    ('ml_gadt_tuple_argument.ml', '1:14', ["written '(a * b) -> t'", "write 'a * b -> t'"]),
    ('ml_type_char_has_no_sarek.ml', '1:16', ["type 'char' has no Sarek layout"]),
    ('ml_type_string_has_no_sarek.ml', '1:15', ["type 'string' has no Sarek layout"]),
    ('ml_unknown_type_pointt_did_you.ml', '1:16', ["unknown type 'pointt'; did you mean 'point'?"]),
    ('ml_type_abbreviation_t_cannot_be.ml', '1:6', ["type abbreviation 't' cannot be a Sarek type"]),
    ('ml_abstract_type_t_has_no.ml', '1:6', ["abstract type 't' has no definition"]),
    ('ml_extensible_variant_t_is_not.ml', '1:10', ["extensible variant 't' is not supported"]),
    ('ml_extensible_variant_t_is_not_2.ml', '1:8', ["extensible variant 't' is not supported"]),
    ('ml_field_p_has_a_tuple.ml', '1:16', ["field 'p' has a tuple type, which has no Sarek layout"]),
    ('ml_field_f_has_a_function.ml', '1:16', ["field 'f' has a function type"]),
    ('ml_type_constructor_list_in_field.ml', '1:23', ["type constructor 'list' (in field 'xs') has no Sarek layout"]),
    ('ml_type_variable_a_in_field.ml', '1:16', ["type variable 'a in field 'x'"]),
    ('ml_type_variable_a_in_field_2.ml', '1:16', ["type variable 'a in field 'x'"]),
    ('ml_type_v_is_declared_at.ml', '2:16', ["type 'v' is declared at {file}:1:6 without [@@sarek.type]"]),
    ('ml_sarek_type_in_an_extension.ml', '2:35', ['[@@sarek.type] is read only on type declarations',
                                                  'inside an expression, a class or an extension']),
    ('ml_it_is_not_on_a.ml', '1:11', ['it is not on a type declaration']),
    ('ml_sarek_type_has_one.ml', '1:24', ["[@sarek.type] has one '@'"]),
    ('ml_floating_attribute_sarek_type.ml', '1:1', ['floating attribute [@@@sarek.type]']),
    ('ml_unterminated_comment.ml', '2:1', ['unterminated comment']),
    ('ml_unterminated_string_literal.ml', '1:9', ['unterminated string literal']),
    ('ml_unterminated_quoted_string.ml', '2:9', ['unterminated quoted string']),
    ('ml_this_comment_contains_an_untermina.ml', '1:10', ['this comment contains an unterminated string literal']),
    ('ml_does_not_close.ml', '1:22', ["')' does not close '{'"]),
    ('ml_nested_module_path_geo_sub.ml', '1:16', ['nested module path Geo.Sub']),
    ('ml_unknown_module_geo_in_type.ml', '1:16', ["unknown module 'Geo' in type 'Geo.p'"]),
    ('ml_expected_a_constructor_name_capita.ml', '1:10', ['expected a constructor name (capitalised)']),
    ('ml_type_constructor_int32.ml', '1:16', ["type constructor 'int32'"]),
    ('ml_expected_a_constructor_name_capita_2.ml', '1:14', ['expected a constructor name (capitalised)']),
    ('ml_expected_after_the_field_name.ml', '1:14', ["expected ':' after the field name 'x'"]),
    ('ml_expected_a_field_name.ml', '1:12', ['expected a field name']),
    ('ml_end_does_not_close.ml', '1:12', ["'end' does not close '{'"]),
    ('ml_field_name_int_is_a.ml', '1:12', ["field name 'int' is a keyword of C"]),
    ('ml_duplicate_type_t.ml', '2:5', ["duplicate type 't'"]),
    ('ml_duplicate_field_x.ml', '1:23', ["duplicate field 'x'"]),
    ('ml_record_t_has_no_fields.ml', '1:6', ["record 't' has no fields"]),
    ('ml_type_constraints_are_not_supported.ml', '1:24', ['type constraints are not supported']),
    ('ml_first_class_module_type.ml', '1:16', ['first-class module type']),
    ('ml_parameterised_type_application.ml', '1:16', ['parameterised type application']),
    ('ml_object_type.ml', '1:16', ['object type']),
    ('ml_function_typed_argument.ml', '1:21', ['function-typed argument']),
    ('ml_unsupported_field_b_of_type.ml', '2:16', ["layout of 'u': field 'b' has type TArray, which has no byte layout"]),
    ('ml_nested_variant_at_field_c.ml', '2:15', ["layout of 'u': field 'C._0' is a variant nested below top level"]),
    ('ml_recursive_type_bad_u.ml', '2:6', ["recursive type 'Ml_recursive_type_bad_u.u'"]),
    ('ml_type_underscore.ml', '1:6', ["type name '_t' starts with '_'"]),
    ('ml_field_half.ml', '1:12', ["field name 'half' is a keyword"]),
    ('ml_field_macro.ml', '1:25', ["field name 'linux' is a macro gcc and clang predefine"]),
    ('ml_field_dunder.ml', '1:12', ["field name 'a__b' contains '__'"]),
    ('ml_deep_records.ml', '101:6', ["type 'Ml_deep_records.r100' nests types 101 levels deep"]),
    ('ml_deep_parens.ml', '1:116', ["type in field 'x' is nested in more than 100 parentheses"]),
    ('ml_mutual_recursion.ml', '1:6', ["recursive type 'Ml_mutual_recursion.a'",
                                       "Ml_mutual_recursion.b -> Ml_mutual_recursion.a"]),
    ('ml_huge_name.ml', '1:6', ["(20000 characters) is longer than the limit of 63 characters"]),
    ('ml_garbage.ml', '', ['binary file (NUL byte at offset 8); expected an OCaml source']),
    # --- OCaml: what Sarek reads, and what it silently would not --------------------------
    ('ml_near_miss_typ.ml', '2:1', ['[@@sarek.typ] is not [@@sarek.type]',
                                    'Sarek ignores an attribute it does not know']),
    ('ml_near_miss_case.ml', '1:43', ['[@@Sarek.Type] is not [@@sarek.type]']),
    ('ml_near_miss_underscore.ml', '1:43', ['[@@sarek_type] is not [@@sarek.type]']),
    ('ml_near_miss_private.ml', [('2:30', ['[@@sarek.type_privat] is not [@@sarek.type_private]']),
                                 ('3:28', ['[@@sarek.types] is not [@@sarek.type]'])]),
    ('ml_no_sarek_type.ml', '', ['this OCaml file declares no Sarek type']),
    ('ml_one_good_type.ml ml_no_sarek_type.ml', '', ['this OCaml file declares no Sarek type']),
    ('ml_duplicate_in_inner_modules.ml', '6:8', [
        "duplicate type 'hit' (first defined at {file}:2:8, in module Rays)",
        "so both are Ml_duplicate_in_inner_modules.hit (C name Ml_duplicate_in_inner_modules_hit)"]),
    ('ml_signature_only.ml', '4:44', ["[@@sarek.type] on 't' in a signature makes no Sarek type",
                                      "put [@@sarek.type] on its definition in the structure"]),
    ('ml_inner_module_no_such_type.ml', '5:37', [
        "unknown type 'Geo.pointt': module Geo of this file declares no Sarek type 'pointt'"]),
    # --- several refusals of one file: every refused type named, knock-ons not ------------
    ('ml_several_refusals.ml', [('4:19', ["field 'p' has a tuple type"]),
                                ('6:6', ["parameterised type 'boxed'"]),
                                ('10:23', ["type 'string' has no Sarek layout"])]),
    ('ml_several_layout_refusals.ml', [
        ('19:38', ["unknown type 'evnt'; did you mean 'event'?"]),
        ('7:11', ["layout of 'job': field 'state' is a variant nested below top level"]),
        ('16:24', ["layout of 'event': field 'Changed._1' is a variant nested below top level"])]),
    ('several_refusals.json', [('6:14', ["record 'e' has no fields"]),
                               ('2:54', ["unknown type 'qq'"]),
                               ('4:38', ["layout of 'r': field 'tag' is a variant nested"])]),
    # --- OCaml: hostile ------------------------------------------------------------------
    ('ml_backslash_newlines.ml', '1:9', ['unterminated string literal']),
    ('ml_backslash_newlines_in_comment.ml', '1:4',
     ['this comment contains an unterminated string literal']),
    # --- C headers (.h) ------------------------------------------------------------------
    ('h_member_p_of_t_is.h', '2:29', ["member 'p' of 'T' is a pointer"]),
    # Deep declarators were a RecursionError traceback (the type was spelled recursively).
    ('h_deep_pointers.h', '1:24', ["a declarator nested too deeply (more than 100 pointers"]),
    ('h_deep_dimensions.h', '1:25', ["nested too deeply (more than 100 array dimensions"]),
    ('h_chained_pointer_typedefs.h', '3002:26', ["member 'p' of 'T' is a pointer"]),
    ('h_member_v_of_t_is.h', '2:27', ["member 'v' of 'T' is an array of pointers"]),
    ('h_member_f_of_t_is.h', '2:28', ["member 'f' of 'T' is a bit-field, which has no Sarek layout",
                                      "C packs bit-fields into shared storage units"]),
    ('h_has_type_char_char_has.h', '2:25', ["has type 'char': char has no Sarek layout"]),
    # (unsigned int, uint32_t, short, int8_t… are the extension scalars now: read, not refused)
    ('h_unsigned_long_is_4_or_8.h', '2:34', ['long is 4 or 8 bytes depending on the ABI',
                                             'uint32_t or uint64_t when unsigned']),
    ('h_c_bool_is_1_byte.h', '2:26', ['C bool is 1 byte']),
    ('h_long_is_4_or_8.h', '2:25', ['long is 4 or 8 bytes depending on the ABI']),
    ('h_the_fixed_width_scalars_are.h', '2:27', ['the fixed-width scalars are int8_t, int16_t, '
                                                 'int32_t, int64_t, uint8_t, uint16_t']),
    ('h_long_double.h', '2:32', ['long double']),
    ('h_member_a_of_t_is.h', '2:36', ["member 'a' of 'T' is _Atomic"]),
    ('h_member_u_of_t_is.h', '3:33', ["member 'u' of 'T' is a union"]),
    ('h_member_e_of_t_is.h', '2:34', ["member 'e' of 'T' is an enum defined in the member's own declaration"]),
    ('h_defines_a_struct_inline.h', '2:40', ['defines a struct inline']),
    ('h_struct_missing_which_is_not.h', '2:35', ["'struct missing', which is not a typedef struct"]),
    ('h_tagged_variant_t_has_no.h', '2:16', ["tagged variant 'T' has no enum constants 'T_<Ctor>'"]),
    ('h_the_tags_of_tagged_variant.h', '2:8', ["the tags of tagged variant 'T' must be 0, 1, …, 1"]),
    ('h_union_member_c_v_of.h', '5:32', ["union member 'C_v' of tagged variant 'T' names no constructor"]),
    ('h_member_1_of_a_v.h', '5:26', ["member '_1' of 'A_v' in tagged variant 'T'"]),
    ('h_the_tag_of_tagged_variant.h', '4:11', ["the tag of tagged variant 'T' must be int32_t, not int64"]),
    ('h_duplicate_field_t.h', '3:27', ["duplicate field 't'"]),
    ('h_member_next_of_u_is.h', '3:30', ["member 'next' of 'U' is a pointer"]),
    ('h_c_parse_error_invalid_specifier.h', '2:20', ["C parse error (Invalid specifier list) before 'U' (an unknown type name?"]),
    ('h_no_typedef_struct_declarations_in.h', '', ["no struct declarations in this header"]),
    ('h_c_preprocessor_nowhere_h_no.h', '2:10', ['C preprocessor: nowhere.h: No such file or directory']),
    ('h_c_parse_error.h', '2:31', ['C parse error']),
    ('h_field_name_kernel_is_a.h', '2:26', ["field name 'kernel' is a keyword or built-in type of OpenCL C (target opencl)"]),
    ('h_field_dunder.h', '2:28', ["field name 'a__b' contains '__'"]),
    ('h_long_name.h', '2:28', ['(64 characters) is longer than the limit of 63 characters']),
    ('h_keyword_class.h', '2:26', ["field name 'class' is a keyword"]),
    ('h_deep_records.h', '102:16', ["type 'R100' nests types 101 levels deep"]),
    ('h_deep_parens.h', '2:30', ['C parse error: nested too deeply']),
    ('h_garbage.h', '1:1', ['C parse error (Illegal character']),
    ('h_empty.h', '', ["no struct declarations in this header"]),
    # --- C extensions that change a layout: the C code would disagree with the schema --
    ('h_packed_attribute.h', '2:44', ["'__attribute__((packed))' packs the struct",
                                      "the C layout would differ from Sarek's"]),
    ('h_packed_macro.h', '3:16', ["'__attribute__((__packed__))' packs the struct"]),
    ('h_pragma_pack.h', '2:3', ["'#pragma pack(push, 1)' packs the members of the structs that follow",
                                "their C layout would differ from Sarek's"]),
    ('h_pragma_operator.h', '2:1', ["'#pragma pack(1)' packs the members of the structs"]),
    ('h_pragma_optimize_pack_struct.h', '2:1', ["'#pragma GCC optimize (\"pack-struct\")' packs the "
                                                "structs begun after it"]),
    ('h_pragma_pack_pop_restores.h', '2:1', ["'#pragma pack(push, 2)' packs the members of the "
                                             "structs that follow to 2-byte alignment"]),
    ('h_zero_width_bit_field.h', '2:31', ["an unnamed member of 'Z' is a bit-field"]),
    ('h_flexible_array_member.h', '2:55', ["member 'ring' of 'avail' is a flexible array member"]),
    ('h_alignas_16.h', '4:5', ["'_Alignas(16)' sets alignment 16",
                               "the C layout would differ from Sarek's"]),
    ('h_alignas_macro_16.h', '3:31', ["'_Alignas(16)' sets alignment 16"]),
    ('h_alignas_8_on_int32.h', '2:20', ["'alignas(8)' aligns member 'a' of 'T' at 8, but its natural "
                                        "alignment in Sarek's layout is 4"]),
    ('h_aligned_8_on_struct.h', '2:16', ["'__attribute__((aligned(8)))' aligns a struct or a typedef "
                                         "at 8, but its natural alignment in Sarek's layout is less"]),
    ('h_aligned_4_on_double.h', '2:40', ["'__attribute__((aligned(4)))' sets alignment 4"]),
    ('h_aligned_without_value.h', '2:41', ["'__attribute__((aligned))' sets the largest alignment"]),
    ('h_declspec_align_16.h', '2:31', ["'__declspec(align(16))' sets alignment 16"]),
    ('h_cuda_align_16.h', '2:31', ["'__align__(16)' sets alignment 16"]),
    ('h_c23_packed.h', '2:31', ["'[[gnu::packed]]' packs the struct"]),
    ('h_mode_attribute.h', '2:26', ["'__attribute__((mode(DI)))' changes the size of the type"]),
    ('h_alignas_type.h', '2:31', ["'_Alignas(double)' sets alignment 'double'"]),
    ('h_unclosed_attribute.h', '2:30', ["'__attribute__((packed; } T;' is not closed"]),
    # --- hostile C: devices, huge enum values, long expressions --------------------------
    ('h_include_dev_zero.h', '1:10', ["#include names '/dev/zero', which is a character device, "
                                      "not a header"]),
    ('h_enum_shift_20000.h', '3:8', ["enum constant 'T_A': it shifts by 20000, outside 0..63"]),
    ('h_enum_shift_1e11.h', '3:8', ["enum constant 'T_A': it shifts by 100000000000, outside 0..63"]),
    ('h_enum_sum_3000_terms.h', '3:8', ["the tags of tagged variant 'T' must be 0, 1",
                                        "found T_A = 3000, T_B = 3001"]),
    ('h_enum_sum_20000_terms.h', '3:8', ["enum constant 'T_A': its expression has more than 10000 "
                                         "terms"]),
    ('h_enum_5000_digits.h', '3:8', ["enum constant 'T_A': it is outside the 64-bit range"]),
    ('h_enum_implicit_value.h', '3:17', ["found T_B = 0, T_A = 1, T_C = 1"]),
    # --- issue 32: arrays, enums and chars as the C reader reads them ---------------------
    ('h_array_too_large.h', '2:26', ["member 'a' of 'T' is an array of more than 2147483647 "
                                     "elements; the largest type is 2147483647 bytes"]),
    ('h_zero_length_array.h', '2:37', ["member 'a' of 'T' is an array of zero elements"]),
    ('h_array_of_minus_one.h', '2:26', ["member 'a' of 'T' is an array of -1 elements"]),
    ('h_vla_member.h', '3:41', ["member 'a' of 'T' is an array whose size cannot be evaluated: "
                                "'n' is no integer constant", "variable-length array"]),
    ('h_array_size_sizeof_long.h', '2:25', ["member 'buf' of 'T' is an array whose size cannot "
                                            "be evaluated: sizeof here is not of a fixed-width "
                                            "scalar, whose size is the same on every ABI"]),
    ('h_array_size_wraps.h', '2:26', ["C computes it in an unsigned type, where it wraps"]),
    ('h_array_9_dimensions.h', '2:28', ["member 'a' of 'T' is an array of 9 dimensions; a struct "
                                        "member has at most 8"]),
    ('h_enum_value_overflows_int32.h', '2:38', ["enum constant 'E_PAST' of 'E' is 2147483648, "
                                                "outside int32"]),
    ('h_enum_value_overflows_64_bits.h', '2:18', ["enum constant 'E_BIG': it is outside the "
                                                  "64-bit range"]),
    ('h_packed_enum.h', '2:14', ["enum 'E' is not laid out as an int: an attribute changes its "
                                 "size", "'__attribute__((packed))'"]),
    ('h_char_alone.h', '2:36', ["member 'one' of 'T' has type 'char'",
                                "a byte string is char name[N]"]),
    ('h_enum_defined_in_member.h', '2:46', ["member 'c' of 'T' is an enum defined in the "
                                            "member's own declaration"]),
]

#: Refusals that only ``generate`` makes (the schema itself is fine for ``layout``).
GENERATE_ONLY = {"python_param.json", "python_builtin.json", "python_fixed.json", "my-schema.json",
                 "python_keyword_clash.json", "python_keyword_type.json",
                 # A name is refused by the targets it breaks, so only when a target is emitted.
                 "cuda_vector.toml", "type_named_main.toml", "type_named_std.json",
                 "type_named_atomicadd.toml", "keyword_default.json", "keyword.toml",
                 "keyword_union.toml", "opencl_keyword.json", "keyword_template.json",
                 "opencl_global.json", "opencl_half.toml", "double_underscore.json",
                 "macro_field.json", "leading_dunder.toml", "c_bool.json", "stdint_macro.json",
                 "composed_stdint.json", "composed_dunder.toml", "ctor_underscore.json",
                 "device_function_type.json", "ml_field_name_int_is_a.ml", "ml_field_half.ml",
                 "ml_field_macro.ml", "ml_field_dunder.ml", "h_field_name_kernel_is_a.h",
                 "h_field_dunder.h", "h_keyword_class.h"}

#: Cases that once ran for hours or took all memory (a pattern that backtracks exponentially,
#: a recursion without a limit): they are first run in a child process under a time and
#: memory limit (``hostile.py``), so that a regression fails instead of hanging the suite.
BOUNDED = {"ml_backslash_newlines.ml", "ml_backslash_newlines_in_comment.ml",
           "h_include_dev_zero.h", "h_enum_shift_1e11.h", "h_enum_sum_3000_terms.h",
           "h_array_too_large.h"}


def _ids(case):
    return case[0].replace(" ", "+")


def _corpus_listing():
    return sorted((p.name, p.stat().st_size) for p in CORPUS.iterdir())


def _expected_lines(case):
    """``[(where, fragments), ...]``: what each line of a case's refusal must hold."""
    return case[1] if len(case) == 2 else [(case[1], case[2])]


def _generate_refuses(capsys, tmp_path, files, where, fragments, more=()):
    """Run ``generate`` on ``files``; check the refusal (one line, or one per ``(where,
    fragments)`` of ``more`` after the first) and that nothing was written.

    Returns the diagnostic lines, joined.
    """
    out = tmp_path / "out"
    out.mkdir()
    depfile = tmp_path / "deps.d"
    status = main(["generate", *files, "-o", str(out), *TARGETS, "--depfile", str(depfile)])
    stdout, err = capsys.readouterr()
    assert status == 2, err
    assert stdout == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    expected = [(where, fragments), *more]
    assert len(lines) == len(expected) and err.endswith("\n"), err
    last = files[-1]
    if not last.isprintable():  # shown escaped, so that the diagnostic stays one line
        last = ascii(last)[1:-1]
    for line, (at, wanted) in zip(lines, expected):
        prefix = f"{last}:{at}: error: " if at else f"{last}: error: "
        assert line.startswith(prefix), err
        for fragment in wanted:
            assert fragment.replace("{file}", last) in line, err
    assert list(out.iterdir()) == [], "a refused run wrote into the output folder"
    assert not depfile.exists(), "a refused run wrote the depfile"
    return "\n".join(lines)


def test_the_corpus_has_at_least_60_cases_in_each_form():
    suffixes = [os.path.splitext(f)[1] for case in CASES for f in case[0].split()]
    counts = {s: suffixes.count(s) for s in (".json", ".toml", ".ml", ".h")}
    assert len(CASES) >= 60 and all(n >= 10 for n in counts.values()), counts


def test_every_corpus_file_has_a_case():
    named = {f for case in CASES for f in case[0].split()}
    present = {p.name for p in CORPUS.iterdir()}
    assert named - present == set(), "cases without a file"
    assert present - named == set(), "files without a case"
    assert len({case[0] for case in CASES}) == len(CASES), "duplicate cases"


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_bad_input_is_refused_and_nothing_is_written(case, tmp_path, capsys, monkeypatch):
    files = case[0].split()
    (where, fragments), *more = _expected_lines(case)
    monkeypatch.chdir(CORPUS)
    before = _corpus_listing()
    if case[0] in BOUNDED:
        assert not more, "a bounded case is refused in one line"
        prefix = f"{files[-1]}:{where}: error: " if where else f"{files[-1]}: error: "
        check_refused_bounded(files, CORPUS, tmp_path, prefix, fragments)
    line = _generate_refuses(capsys, tmp_path, files, where, fragments, more)
    # The same refusal from the other commands that read schemas.
    command = ["import-c"] if files[-1].endswith(".h") and len(files) == 1 else ["layout"]
    status = main(command + files)
    stdout, err = capsys.readouterr()
    if case[0] in GENERATE_ONLY:
        assert status == 0, err
    elif command == ["import-c"] and status == 1:
        # Some of its types import (issue 22): they are written, and the refusal is among
        # the ones reported, at the same place, naming the type.
        place, _, message = line.partition(": error: ")
        assert stdout and any(r.startswith(f"{place}: error: ") and r.endswith(message)
                              for r in err.splitlines()), err
    else:
        assert (status, stdout, err) == (2, "", line + "\n")
    assert _corpus_listing() == before, "reading the corpus changed it"


# --- inputs the corpus cannot hold: made on the fly ---------------------------------------------

_RECORD = {
    ".json": '{"types": [{"record": "p", "fields": [["x", "int32"]]}]}',
    ".toml": '[[types]]\nrecord = "p"\nfields = [["x", "int32"]]\n',
    ".ml": "type p = { x : int32 } [@@sarek.type]\n",
    ".h": "#include <stdint.h>\ntypedef struct P { int32_t x; } P;\n",
}


def _make_unreadable(kind, folder, suffix):
    """A schema path of ``kind`` that cannot be read, and the message fragment expected."""
    path = folder / f"schema{suffix}"
    if kind == "directory":
        path.mkdir()
        return path, "is a directory, not a schema file"
    if kind == "missing":
        return path, "cannot read: No such file or directory"
    if kind == "symlink loop":
        path.symlink_to(path.name)
        return path, "cannot read: Too many levels of symbolic links"
    if kind == "through a file":
        (folder / "file").write_text("")
        return folder / "file" / f"schema{suffix}", "cannot read: Not a directory"
    if kind == "fifo":
        os.mkfifo(path)
        return path, "is not a regular file"
    assert kind == "no permission"
    path.write_text(_RECORD[suffix])
    path.chmod(0)
    # root reads anything: then the file is simply read, which the test accepts below.
    return path, "cannot read: Permission denied"


@pytest.mark.parametrize("suffix", sorted(_RECORD))
@pytest.mark.parametrize("kind", ["directory", "missing", "symlink loop", "through a file", "fifo",
                                  "no permission"])
def test_unreadable_schemas_are_refused_in_one_line(kind, suffix, tmp_path, capsys):
    folder = tmp_path / "in"
    folder.mkdir()
    path, fragment = _make_unreadable(kind, folder, suffix)
    try:
        if kind == "no permission" and os.access(path, os.R_OK):
            # Running as root: the permission bits do not stop us, so the file must work.
            assert main(["layout", str(path)]) == 0
            return
        _generate_refuses(capsys, tmp_path, [str(path)], "", [fragment])
    finally:
        if path.exists() and not path.is_symlink() and path.is_file():
            path.chmod(stat.S_IRUSR | stat.S_IWUSR)


# File names that must never reach a generated file: they are printed in banners, include
# lines, #error strings and Python docstrings, and name the outputs.
HOSTILE_NAMES = [
    'quote"d.json',       # closes a C string or an #include "…"
    "star*.json",         # with the next character, '*/' closes a banner comment
    "new\nline.toml",     # ends a comment line, a #include, a Make rule
    "back\\Nslash.json",  # '\N' is a syntax error in a Python docstring
    "caf\u00e9.json",     # non-ASCII
    "sp ace.json",
    "-dash.json",         # looks like an option
    "tab\t.json",
]


@pytest.mark.parametrize("name", HOSTILE_NAMES, ids=[ascii(n) for n in HOSTILE_NAMES])
def test_schema_file_names_that_cannot_name_outputs_are_refused(name, tmp_path, capsys,
                                                                 monkeypatch):
    folder = tmp_path / "in"
    folder.mkdir()
    suffix = os.path.splitext(name)[1]
    (folder / name).write_text('module = "M"\n' + _RECORD[".toml"] if suffix == ".toml" else
                               '{"module": "M", "types": [{"record": "p", "fields": [["x", "int32"]]}]}')
    monkeypatch.chdir(folder)
    # "./": a name starting with '-' would otherwise be read as an option.
    _generate_refuses(capsys, tmp_path, [os.path.join(".", name)], "",
                      ["cannot name the generated files", "rename the file"])
    assert os.listdir(folder) == [name], "something was written next to the schema"


def test_a_stem_that_is_not_a_python_name_is_fine_for_the_c_targets(tmp_path, capsys):
    schema = tmp_path / "my-schema.json"
    schema.write_text('{"module": "My", "types": [{"record": "p", "fields": [["x", "int32"]]}]}')
    assert main(["generate", str(schema), "-o", str(tmp_path / "out")]) == 0
    assert sorted(os.listdir(tmp_path / "out")) == ["my-schema.clh", "my-schema.cuh", "my-schema.h"]
    header = (tmp_path / "out" / "my-schema.h").read_text()
    assert "#ifndef SAREK_LAYOUT_MY_SCHEMA_H" in header
