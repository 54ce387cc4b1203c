// Package config finds Ferry's directories and reads, validates and writes
// its settings file.
//
// Directories: the data directory (store, browser profile, artifacts, the hub
// file) comes from --data-dir, else $FERRY_DATA_DIR, else the platform's
// per-user data location. The settings file lives in the config directory:
// $FERRY_CONFIG_DIR, else the data directory itself when that was given
// explicitly (a self-contained, portable directory), else the platform's
// per-user config location.
//
// Settings are a JSON file. Loading never changes the file: a malformed file
// is an errs.ConfigInvalid envelope naming the file, line, column and
// problem, and only an explicit Reset replaces it, keeping the old one as a
// .bak. Writes are atomic (temp file, fsync, rename, fsync of the directory).
package config
