// Package settings reads and edits Claude Code settings files (design
// §10): it registers this program's hooks and status line, finds them
// again, and removes them, keeping every other key, hook and matcher in
// its place and meaning.
//
// Settings are decoded into ordered objects so a rewrite keeps the user's
// key order; numbers keep their literal text. The file is written back
// with two-space indentation, as Claude Code writes it, so running
// install twice gives byte-identical files.
package settings
