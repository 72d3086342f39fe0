‰PNG

ÿþ