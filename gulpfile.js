const { parallel, src, dest } = require('gulp');

// n8n resolves `file:` icons relative to the compiled node and credential files,
// so the SVGs must sit in dist/icons, one level above dist/nodes and dist/credentials.
function copyIcons() {
	return src('icons/*.svg').pipe(dest('dist/icons'));
}

// Codex files (<Node>.node.json: categories, aliases, documentation links) are read from
// next to the compiled node file.
function copyCodex() {
	return src('nodes/**/*.node.json').pipe(dest('dist/nodes'));
}

exports['build:icons'] = parallel(copyIcons, copyCodex);
