#version 450
#inc\
lude "/etc/passwd"
