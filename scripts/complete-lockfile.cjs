const fs = require('fs');
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
const pk = lock.packages;
let added = 0;
for (const [path, meta] of Object.entries(pk)) {
  for (const [name, ver] of Object.entries(meta.optionalDependencies || {})) {
    const base = path ? path + '/node_modules/' + name : 'node_modules/' + name;
    const top = 'node_modules/' + name;
    if (pk[base] || pk[top]) continue;
    pk[top] = { version: ver, optional: true, ...(meta.dev ? { dev: true } : {}) };
    added++;
  }
}
fs.writeFileSync('package-lock.json', JSON.stringify(lock, null, 2) + '\n');
console.log('added', added);
