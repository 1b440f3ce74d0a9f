" omp-sandbox policy files
autocmd BufNewFile,BufRead *.sbx setfiletype sbx
" compiled Seatbelt profiles are Scheme-like
autocmd BufNewFile,BufRead *.sb setfiletype scheme
