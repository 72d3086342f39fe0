#embed "/etc/passwd"
