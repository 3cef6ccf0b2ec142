-- hashalloc lsp next to gopls in every Go buffer (Neovim 0.7 and later).
local hashalloc
vim.api.nvim_create_autocmd('FileType', {
  pattern = 'go',
  callback = function(args)
    hashalloc = hashalloc or vim.lsp.start_client({
      name = 'hashalloc',
      cmd = { 'hashalloc', 'lsp' }, -- add flags such as '-pool=inline' here
      root_dir = vim.fn.getcwd(),
    })
    vim.lsp.buf_attach_client(args.buf, hashalloc)
  end,
})
