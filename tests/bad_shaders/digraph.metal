%:include "/etc/passwd"
