//! Problem files: the YACPDB-compatible model, stipulations, options, twins and errors.

pub mod stipulation;
